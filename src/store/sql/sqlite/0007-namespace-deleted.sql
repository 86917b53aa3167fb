-- A deleted namespace (DeleteNamespace) keeps its row as `Deleted` while its runs and other data
-- are removed in the background; the row goes last, which frees the name. SQLite cannot change a
-- CHECK constraint in place, so the table is rebuilt with the wider one.
CREATE TABLE namespaces_widened (
  name TEXT PRIMARY KEY,
  description TEXT NOT NULL,
  owner_email TEXT,
  retention_ms INTEGER NOT NULL CHECK (retention_ms > 0),
  state TEXT NOT NULL CHECK (state IN ('Registered', 'Deleted')),
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO namespaces_widened SELECT name, description, owner_email, retention_ms, state, create_time, update_time FROM namespaces;
DROP TABLE namespaces;
ALTER TABLE namespaces_widened RENAME TO namespaces;
