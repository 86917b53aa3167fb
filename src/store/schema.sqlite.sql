-- Generated from src/store/sql/sqlite by the schema dump test. Do not edit.

CREATE TABLE executions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL,
  workflow_id TEXT NOT NULL,
  workflow_type TEXT NOT NULL,
  task_queue TEXT NOT NULL,
  status TEXT NOT NULL,
  start_time INTEGER NOT NULL,
  execution_time INTEGER NOT NULL,
  close_time INTEGER,
  next_event_id INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  first_execution_run_id TEXT NOT NULL,
  original_execution_run_id TEXT NOT NULL,
  request_id TEXT,
  memo TEXT,
  state TEXT NOT NULL,
  version INTEGER NOT NULL
);

CREATE TABLE history_events (
  run_id TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  event_time TEXT NOT NULL,
  attributes TEXT NOT NULL,
  PRIMARY KEY (run_id, event_id)
) WITHOUT ROWID;

CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);

CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL,
  task_queue TEXT NOT NULL,
  kind TEXT NOT NULL,
  run_id TEXT NOT NULL,
  visible_at INTEGER NOT NULL,
  lease_until INTEGER,
  lease_owner TEXT,
  data TEXT NOT NULL
);

CREATE TABLE timers (
  id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL,
  run_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  lease_until INTEGER,
  lease_owner TEXT,
  data TEXT NOT NULL
);

CREATE INDEX executions_by_seq ON executions (namespace, seq);

CREATE INDEX executions_by_workflow_id ON executions (namespace, workflow_id, seq);

CREATE UNIQUE INDEX executions_one_open_run ON executions (namespace, workflow_id) WHERE status = 'Running';

CREATE INDEX tasks_by_lease ON tasks (lease_until) WHERE lease_until IS NOT NULL;

CREATE INDEX tasks_by_queue ON tasks (namespace, task_queue, kind, visible_at);

CREATE INDEX tasks_by_run ON tasks (run_id);

CREATE INDEX tasks_by_visible_at ON tasks (visible_at);

CREATE INDEX timers_by_due ON timers (due_at);

CREATE INDEX timers_by_lease ON timers (lease_until) WHERE lease_until IS NOT NULL;

CREATE INDEX timers_by_run ON timers (run_id);
