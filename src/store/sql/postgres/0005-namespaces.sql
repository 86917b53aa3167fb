-- Registered namespaces (docs/operations.md, "Namespaces and retention"): a call naming any other
-- namespace is refused, and closed runs older than retention_ms are deleted by the retention
-- sweep. `default` exists from the start with Temporal's default retention (3 days); so does every
-- namespace that already holds runs, schedules or search attributes, so existing data stays
-- reachable. Times are ms since the epoch; a migration has no injected clock, so these rows take
-- the database's own time, once. Migrations run under the advisory lock (one server at a time).
CREATE TABLE namespaces (
  name text COLLATE "C" PRIMARY KEY,
  description text NOT NULL,
  owner_email text,
  retention_ms bigint NOT NULL CHECK (retention_ms > 0),
  state text NOT NULL CHECK (state IN ('Registered')),
  create_time bigint NOT NULL,
  update_time bigint NOT NULL
);

INSERT INTO namespaces (name, description, retention_ms, state, create_time, update_time)
SELECT name, '', 259200000, 'Registered', (extract(epoch FROM clock_timestamp()) * 1000)::bigint,
  (extract(epoch FROM clock_timestamp()) * 1000)::bigint
FROM (SELECT 'default' AS name UNION SELECT namespace FROM executions UNION SELECT namespace FROM schedules
  UNION SELECT namespace FROM search_attribute_columns) AS known;

-- The retention sweep's scan: closed runs of a namespace by close time.
CREATE INDEX executions_by_close ON executions (namespace, close_time) WHERE close_time IS NOT NULL;
