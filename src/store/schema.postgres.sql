-- Generated from src/store/sql/postgres by the schema dump test. Do not edit.

CREATE TABLE executions (
  seq bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  run_id text NOT NULL,
  namespace text NOT NULL,
  workflow_id text NOT NULL,
  workflow_type text NOT NULL,
  task_queue text NOT NULL,
  status text NOT NULL,
  start_time bigint NOT NULL,
  execution_time bigint NOT NULL,
  close_time bigint,
  next_event_id integer NOT NULL,
  attempt integer NOT NULL,
  first_execution_run_id text NOT NULL,
  original_execution_run_id text NOT NULL,
  request_id text,
  memo text,
  state text NOT NULL,
  version integer NOT NULL,
  search_attributes text,
  scheduled_by_id text,
  scheduled_start_time bigint
) WITH (fillfactor=70);

CREATE TABLE executions_visibility (
  run_id text NOT NULL,
  namespace text NOT NULL,
  workflow_id text NOT NULL,
  workflow_type text NOT NULL,
  status text NOT NULL,
  task_queue text NOT NULL,
  start_time bigint NOT NULL,
  execution_time bigint NOT NULL,
  close_time bigint,
  execution_duration bigint,
  history_length bigint NOT NULL,
  scheduled_by_id text,
  scheduled_start_time bigint,
  search_attributes text,
  keyword_01 text,
  keyword_02 text,
  keyword_03 text,
  keyword_04 text,
  keyword_05 text,
  keyword_06 text,
  keyword_07 text,
  keyword_08 text,
  keyword_09 text,
  keyword_10 text,
  text_01 text,
  text_02 text,
  text_03 text,
  int_01 bigint,
  int_02 bigint,
  int_03 bigint,
  double_01 double precision,
  double_02 double precision,
  double_03 double precision,
  bool_01 boolean,
  bool_02 boolean,
  bool_03 boolean,
  datetime_01 bigint,
  datetime_02 bigint,
  datetime_03 bigint,
  keyword_list_01 ARRAY,
  keyword_list_02 ARRAY,
  keyword_list_03 ARRAY,
  task_failing boolean NOT NULL DEFAULT false
);

CREATE TABLE history_events (
  run_id text NOT NULL,
  event_id integer NOT NULL,
  event_type text NOT NULL,
  event_time text NOT NULL,
  attributes text NOT NULL
);

CREATE TABLE namespaces (
  name text NOT NULL,
  description text NOT NULL,
  owner_email text,
  retention_ms bigint NOT NULL,
  state text NOT NULL,
  create_time bigint NOT NULL,
  update_time bigint NOT NULL
);

CREATE TABLE schedules (
  namespace text NOT NULL,
  schedule_id text NOT NULL,
  create_time bigint NOT NULL,
  state text NOT NULL,
  version integer NOT NULL
);

CREATE TABLE schema_migrations (
  version integer NOT NULL,
  name text NOT NULL
);

CREATE TABLE search_attribute_columns (
  namespace text NOT NULL,
  name text NOT NULL,
  type text NOT NULL,
  column_name text NOT NULL
);

CREATE TABLE server_secrets (
  name text NOT NULL,
  value text NOT NULL
);

CREATE TABLE task_queue_pollers (
  namespace text NOT NULL,
  task_queue text NOT NULL,
  kind text NOT NULL,
  identity text NOT NULL,
  last_access_time bigint NOT NULL,
  rate_per_second double precision NOT NULL
);

CREATE TABLE tasks (
  id text NOT NULL,
  namespace text NOT NULL,
  task_queue text NOT NULL,
  kind text NOT NULL,
  run_id text NOT NULL,
  visible_at bigint NOT NULL,
  lease_until bigint,
  lease_owner text,
  data text NOT NULL
);

CREATE TABLE timers (
  id text NOT NULL,
  namespace text NOT NULL,
  run_id text NOT NULL,
  kind text NOT NULL,
  due_at bigint NOT NULL,
  lease_until bigint,
  lease_owner text,
  data text NOT NULL
);

CREATE INDEX executions_by_close ON executions USING btree (namespace, close_time) WHERE (close_time IS NOT NULL);
CREATE INDEX executions_by_seq ON executions USING btree (namespace, seq);
CREATE INDEX executions_by_workflow_id ON executions USING btree (namespace, workflow_id, seq);
CREATE UNIQUE INDEX executions_one_open_run ON executions USING btree (namespace, workflow_id) WHERE (status = 'Running'::text);
CREATE UNIQUE INDEX executions_pkey ON executions USING btree (run_id);
CREATE INDEX executions_visibility_by_close ON executions_visibility USING btree (namespace, close_time, run_id) WHERE (close_time IS NOT NULL);
CREATE INDEX executions_visibility_by_datetime_01 ON executions_visibility USING btree (namespace, datetime_01, start_time, run_id) WHERE (datetime_01 IS NOT NULL);
CREATE INDEX executions_visibility_by_datetime_02 ON executions_visibility USING btree (namespace, datetime_02, start_time, run_id) WHERE (datetime_02 IS NOT NULL);
CREATE INDEX executions_visibility_by_datetime_03 ON executions_visibility USING btree (namespace, datetime_03, start_time, run_id) WHERE (datetime_03 IS NOT NULL);
CREATE INDEX executions_visibility_by_double_01 ON executions_visibility USING btree (namespace, double_01, start_time, run_id) WHERE (double_01 IS NOT NULL);
CREATE INDEX executions_visibility_by_double_02 ON executions_visibility USING btree (namespace, double_02, start_time, run_id) WHERE (double_02 IS NOT NULL);
CREATE INDEX executions_visibility_by_double_03 ON executions_visibility USING btree (namespace, double_03, start_time, run_id) WHERE (double_03 IS NOT NULL);
CREATE INDEX executions_visibility_by_int_01 ON executions_visibility USING btree (namespace, int_01, start_time, run_id) WHERE (int_01 IS NOT NULL);
CREATE INDEX executions_visibility_by_int_02 ON executions_visibility USING btree (namespace, int_02, start_time, run_id) WHERE (int_02 IS NOT NULL);
CREATE INDEX executions_visibility_by_int_03 ON executions_visibility USING btree (namespace, int_03, start_time, run_id) WHERE (int_03 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_01 ON executions_visibility USING btree (namespace, keyword_01, start_time, run_id) WHERE (keyword_01 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_02 ON executions_visibility USING btree (namespace, keyword_02, start_time, run_id) WHERE (keyword_02 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_03 ON executions_visibility USING btree (namespace, keyword_03, start_time, run_id) WHERE (keyword_03 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_04 ON executions_visibility USING btree (namespace, keyword_04, start_time, run_id) WHERE (keyword_04 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_05 ON executions_visibility USING btree (namespace, keyword_05, start_time, run_id) WHERE (keyword_05 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_06 ON executions_visibility USING btree (namespace, keyword_06, start_time, run_id) WHERE (keyword_06 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_07 ON executions_visibility USING btree (namespace, keyword_07, start_time, run_id) WHERE (keyword_07 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_08 ON executions_visibility USING btree (namespace, keyword_08, start_time, run_id) WHERE (keyword_08 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_09 ON executions_visibility USING btree (namespace, keyword_09, start_time, run_id) WHERE (keyword_09 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_10 ON executions_visibility USING btree (namespace, keyword_10, start_time, run_id) WHERE (keyword_10 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_list_01 ON executions_visibility USING gin (keyword_list_01) WHERE (keyword_list_01 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_list_02 ON executions_visibility USING gin (keyword_list_02) WHERE (keyword_list_02 IS NOT NULL);
CREATE INDEX executions_visibility_by_keyword_list_03 ON executions_visibility USING gin (keyword_list_03) WHERE (keyword_list_03 IS NOT NULL);
CREATE INDEX executions_visibility_by_start ON executions_visibility USING btree (namespace, start_time, run_id);
CREATE INDEX executions_visibility_by_status ON executions_visibility USING btree (namespace, status, start_time, run_id);
CREATE INDEX executions_visibility_by_task_failing ON executions_visibility USING btree (namespace, start_time, run_id) WHERE task_failing;
CREATE INDEX executions_visibility_by_type ON executions_visibility USING btree (namespace, workflow_type, start_time, run_id);
CREATE INDEX executions_visibility_by_workflow_id ON executions_visibility USING btree (namespace, workflow_id, start_time, run_id);
CREATE UNIQUE INDEX executions_visibility_pkey ON executions_visibility USING btree (run_id);
CREATE UNIQUE INDEX history_events_pkey ON history_events USING btree (run_id, event_id);
CREATE UNIQUE INDEX namespaces_pkey ON namespaces USING btree (name);
CREATE UNIQUE INDEX schedules_pkey ON schedules USING btree (namespace, schedule_id);
CREATE UNIQUE INDEX schema_migrations_pkey ON schema_migrations USING btree (version);
CREATE UNIQUE INDEX search_attribute_columns_namespace_column_name_key ON search_attribute_columns USING btree (namespace, column_name);
CREATE UNIQUE INDEX search_attribute_columns_pkey ON search_attribute_columns USING btree (namespace, name);
CREATE UNIQUE INDEX server_secrets_pkey ON server_secrets USING btree (name);
CREATE UNIQUE INDEX task_queue_pollers_pkey ON task_queue_pollers USING btree (namespace, task_queue, kind, identity);
CREATE INDEX tasks_by_lease ON tasks USING btree (lease_until) WHERE (lease_until IS NOT NULL);
CREATE INDEX tasks_by_queue ON tasks USING btree (namespace, task_queue, kind, visible_at);
CREATE INDEX tasks_by_run ON tasks USING btree (run_id);
CREATE INDEX tasks_by_visible_at ON tasks USING btree (visible_at);
CREATE UNIQUE INDEX tasks_pkey ON tasks USING btree (id);
CREATE INDEX timers_by_due ON timers USING btree (due_at);
CREATE INDEX timers_by_lease ON timers USING btree (lease_until) WHERE (lease_until IS NOT NULL);
CREATE INDEX timers_by_run ON timers USING btree (run_id);
CREATE UNIQUE INDEX timers_pkey ON timers USING btree (id);
