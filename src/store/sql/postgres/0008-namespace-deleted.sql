-- A deleted namespace (DeleteNamespace) keeps its row as `Deleted` while its runs and other data
-- are removed in the background; the row goes last, which frees the name.
ALTER TABLE namespaces DROP CONSTRAINT namespaces_state_check;
ALTER TABLE namespaces ADD CONSTRAINT namespaces_state_check CHECK (state IN ('Registered', 'Deleted'));
