-- The workers that poll each task queue (docs/operations.md, "Workers and task queues"): one row
-- per namespace, queue, kind and identity, with when it last polled, so describeTaskQueue knows a
-- queue's pollers across server restarts. Rows older than a few minutes are not shown.
CREATE TABLE task_queue_pollers (
  namespace TEXT NOT NULL,
  task_queue TEXT NOT NULL,
  kind TEXT NOT NULL,
  identity TEXT NOT NULL,
  last_access_time INTEGER NOT NULL,
  rate_per_second REAL NOT NULL,
  PRIMARY KEY (namespace, task_queue, kind, identity)
) WITHOUT ROWID;

-- The built-in TaskFailing attribute: true while the run's workflow task keeps failing.
ALTER TABLE executions_visibility ADD COLUMN task_failing INTEGER NOT NULL DEFAULT 0;
CREATE INDEX executions_visibility_by_task_failing ON executions_visibility (namespace, start_time, run_id) WHERE task_failing = 1;
