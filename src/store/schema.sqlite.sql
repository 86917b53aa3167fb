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
, search_attributes TEXT, scheduled_by_id TEXT, scheduled_start_time INTEGER);

CREATE TABLE executions_visibility (
  run_id TEXT PRIMARY KEY,
  namespace TEXT NOT NULL,
  workflow_id TEXT NOT NULL,
  workflow_type TEXT NOT NULL,
  status TEXT NOT NULL,
  task_queue TEXT NOT NULL,
  start_time INTEGER NOT NULL,
  execution_time INTEGER NOT NULL,
  close_time INTEGER,
  execution_duration INTEGER,
  history_length INTEGER NOT NULL,
  scheduled_by_id TEXT,
  scheduled_start_time INTEGER,
  search_attributes TEXT,
  keyword_01 TEXT, keyword_02 TEXT, keyword_03 TEXT, keyword_04 TEXT, keyword_05 TEXT, keyword_06 TEXT, keyword_07 TEXT, keyword_08 TEXT, keyword_09 TEXT, keyword_10 TEXT,
  text_01 TEXT, text_02 TEXT, text_03 TEXT,
  int_01 INTEGER, int_02 INTEGER, int_03 INTEGER,
  double_01 REAL, double_02 REAL, double_03 REAL,
  bool_01 INTEGER, bool_02 INTEGER, bool_03 INTEGER,
  datetime_01 INTEGER, datetime_02 INTEGER, datetime_03 INTEGER,
  keyword_list_01 TEXT, keyword_list_02 TEXT, keyword_list_03 TEXT
, task_failing INTEGER NOT NULL DEFAULT 0);

CREATE TABLE history_events (
  run_id TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  event_time TEXT NOT NULL,
  attributes TEXT NOT NULL,
  PRIMARY KEY (run_id, event_id)
) WITHOUT ROWID;

CREATE TABLE "namespaces" (
  name TEXT PRIMARY KEY,
  description TEXT NOT NULL,
  owner_email TEXT,
  retention_ms INTEGER NOT NULL CHECK (retention_ms > 0),
  state TEXT NOT NULL CHECK (state IN ('Registered', 'Deleted')),
  create_time INTEGER NOT NULL,
  update_time INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE schedules (
  namespace TEXT NOT NULL,
  schedule_id TEXT NOT NULL,
  create_time INTEGER NOT NULL,
  state TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (namespace, schedule_id)
) WITHOUT ROWID;

CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);

CREATE TABLE search_attribute_columns (
  namespace TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('Keyword', 'Text', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList')),
  column_name TEXT NOT NULL,
  PRIMARY KEY (namespace, name),
  UNIQUE (namespace, column_name)
);

CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE task_queue_pollers (
  namespace TEXT NOT NULL,
  task_queue TEXT NOT NULL,
  kind TEXT NOT NULL,
  identity TEXT NOT NULL,
  last_access_time INTEGER NOT NULL,
  rate_per_second REAL NOT NULL,
  PRIMARY KEY (namespace, task_queue, kind, identity)
) WITHOUT ROWID;

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

CREATE INDEX executions_by_close ON executions (namespace, close_time) WHERE close_time IS NOT NULL;

CREATE INDEX executions_by_seq ON executions (namespace, seq);

CREATE INDEX executions_by_workflow_id ON executions (namespace, workflow_id, seq);

CREATE UNIQUE INDEX executions_one_open_run ON executions (namespace, workflow_id) WHERE status = 'Running';

CREATE INDEX executions_visibility_by_close ON executions_visibility (namespace, close_time, run_id) WHERE close_time IS NOT NULL;

CREATE INDEX executions_visibility_by_datetime_01 ON executions_visibility (namespace, datetime_01, start_time, run_id) WHERE datetime_01 IS NOT NULL;

CREATE INDEX executions_visibility_by_datetime_02 ON executions_visibility (namespace, datetime_02, start_time, run_id) WHERE datetime_02 IS NOT NULL;

CREATE INDEX executions_visibility_by_datetime_03 ON executions_visibility (namespace, datetime_03, start_time, run_id) WHERE datetime_03 IS NOT NULL;

CREATE INDEX executions_visibility_by_double_01 ON executions_visibility (namespace, double_01, start_time, run_id) WHERE double_01 IS NOT NULL;

CREATE INDEX executions_visibility_by_double_02 ON executions_visibility (namespace, double_02, start_time, run_id) WHERE double_02 IS NOT NULL;

CREATE INDEX executions_visibility_by_double_03 ON executions_visibility (namespace, double_03, start_time, run_id) WHERE double_03 IS NOT NULL;

CREATE INDEX executions_visibility_by_int_01 ON executions_visibility (namespace, int_01, start_time, run_id) WHERE int_01 IS NOT NULL;

CREATE INDEX executions_visibility_by_int_02 ON executions_visibility (namespace, int_02, start_time, run_id) WHERE int_02 IS NOT NULL;

CREATE INDEX executions_visibility_by_int_03 ON executions_visibility (namespace, int_03, start_time, run_id) WHERE int_03 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_01 ON executions_visibility (namespace, keyword_01, start_time, run_id) WHERE keyword_01 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_02 ON executions_visibility (namespace, keyword_02, start_time, run_id) WHERE keyword_02 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_03 ON executions_visibility (namespace, keyword_03, start_time, run_id) WHERE keyword_03 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_04 ON executions_visibility (namespace, keyword_04, start_time, run_id) WHERE keyword_04 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_05 ON executions_visibility (namespace, keyword_05, start_time, run_id) WHERE keyword_05 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_06 ON executions_visibility (namespace, keyword_06, start_time, run_id) WHERE keyword_06 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_07 ON executions_visibility (namespace, keyword_07, start_time, run_id) WHERE keyword_07 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_08 ON executions_visibility (namespace, keyword_08, start_time, run_id) WHERE keyword_08 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_09 ON executions_visibility (namespace, keyword_09, start_time, run_id) WHERE keyword_09 IS NOT NULL;

CREATE INDEX executions_visibility_by_keyword_10 ON executions_visibility (namespace, keyword_10, start_time, run_id) WHERE keyword_10 IS NOT NULL;

CREATE INDEX executions_visibility_by_start ON executions_visibility (namespace, start_time, run_id);

CREATE INDEX executions_visibility_by_status ON executions_visibility (namespace, status, start_time, run_id);

CREATE INDEX executions_visibility_by_task_failing ON executions_visibility (namespace, start_time, run_id) WHERE task_failing = 1;

CREATE INDEX executions_visibility_by_type ON executions_visibility (namespace, workflow_type, start_time, run_id);

CREATE INDEX executions_visibility_by_workflow_id ON executions_visibility (namespace, workflow_id, start_time, run_id);

CREATE INDEX tasks_by_lease ON tasks (lease_until) WHERE lease_until IS NOT NULL;

CREATE INDEX tasks_by_queue ON tasks (namespace, task_queue, kind, visible_at);

CREATE INDEX tasks_by_run ON tasks (run_id);

CREATE INDEX tasks_by_visible_at ON tasks (visible_at);

CREATE INDEX timers_by_due ON timers (due_at);

CREATE INDEX timers_by_lease ON timers (lease_until) WHERE lease_until IS NOT NULL;

CREATE INDEX timers_by_run ON timers (run_id);
