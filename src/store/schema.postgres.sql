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
  version integer NOT NULL
);

CREATE TABLE history_events (
  run_id text NOT NULL,
  event_id integer NOT NULL,
  event_type text NOT NULL,
  event_time text NOT NULL,
  attributes text NOT NULL
);

CREATE TABLE schema_migrations (
  version integer NOT NULL,
  name text NOT NULL
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

CREATE INDEX executions_by_seq ON executions USING btree (namespace, seq);
CREATE INDEX executions_by_workflow_id ON executions USING btree (namespace, workflow_id, seq);
CREATE UNIQUE INDEX executions_one_open_run ON executions USING btree (namespace, workflow_id) WHERE (status = 'Running'::text);
CREATE UNIQUE INDEX executions_pkey ON executions USING btree (run_id);
CREATE UNIQUE INDEX history_events_pkey ON history_events USING btree (run_id, event_id);
CREATE UNIQUE INDEX schema_migrations_pkey ON schema_migrations USING btree (version);
CREATE INDEX tasks_by_lease ON tasks USING btree (lease_until) WHERE (lease_until IS NOT NULL);
CREATE INDEX tasks_by_queue ON tasks USING btree (namespace, task_queue, kind, visible_at);
CREATE INDEX tasks_by_run ON tasks USING btree (run_id);
CREATE INDEX tasks_by_visible_at ON tasks USING btree (visible_at);
CREATE UNIQUE INDEX tasks_pkey ON tasks USING btree (id);
CREATE INDEX timers_by_due ON timers USING btree (due_at);
CREATE INDEX timers_by_lease ON timers USING btree (lease_until) WHERE (lease_until IS NOT NULL);
CREATE INDEX timers_by_run ON timers USING btree (run_id);
CREATE UNIQUE INDEX timers_pkey ON timers USING btree (id);
