-- Visibility records: one row per run, written in the same transaction as the run's
-- execution row. Times are epoch milliseconds. Custom search attributes live in typed slot
-- columns; search_attribute_columns maps each namespace's attribute names to its slots.
-- See docs/visibility.md for the reasons behind each choice.

CREATE TABLE IF NOT EXISTS executions_visibility (
  run_id text COLLATE "C" PRIMARY KEY,
  namespace text COLLATE "C" NOT NULL,
  workflow_id text COLLATE "C" NOT NULL,
  workflow_type text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  task_queue text COLLATE "C" NOT NULL,
  start_time bigint NOT NULL,
  execution_time bigint NOT NULL,
  close_time bigint,
  execution_duration bigint,
  history_length bigint NOT NULL,
  scheduled_by_id text COLLATE "C",
  scheduled_start_time bigint,
  search_attributes text,
  keyword_01 text COLLATE "C", keyword_02 text COLLATE "C", keyword_03 text COLLATE "C", keyword_04 text COLLATE "C", keyword_05 text COLLATE "C", keyword_06 text COLLATE "C", keyword_07 text COLLATE "C", keyword_08 text COLLATE "C", keyword_09 text COLLATE "C", keyword_10 text COLLATE "C",
  text_01 text, text_02 text, text_03 text,
  int_01 bigint, int_02 bigint, int_03 bigint,
  double_01 double precision, double_02 double precision, double_03 double precision,
  bool_01 boolean, bool_02 boolean, bool_03 boolean,
  datetime_01 bigint, datetime_02 bigint, datetime_03 bigint,
  keyword_list_01 text[], keyword_list_02 text[], keyword_list_03 text[]
);

CREATE TABLE IF NOT EXISTS search_attribute_columns (
  namespace text NOT NULL,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('Keyword', 'Text', 'Int', 'Double', 'Bool', 'Datetime', 'KeywordList')),
  column_name text NOT NULL,
  PRIMARY KEY (namespace, name),
  UNIQUE (namespace, column_name)
);

CREATE INDEX IF NOT EXISTS executions_visibility_by_start ON executions_visibility (namespace, start_time, run_id);
CREATE INDEX IF NOT EXISTS executions_visibility_by_status ON executions_visibility (namespace, status, start_time, run_id);
CREATE INDEX IF NOT EXISTS executions_visibility_by_type ON executions_visibility (namespace, workflow_type, start_time, run_id);
CREATE INDEX IF NOT EXISTS executions_visibility_by_workflow_id ON executions_visibility (namespace, workflow_id, start_time, run_id);
CREATE INDEX IF NOT EXISTS executions_visibility_by_close ON executions_visibility (namespace, close_time, run_id) WHERE close_time IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_01 ON executions_visibility (namespace, keyword_01, start_time, run_id) WHERE keyword_01 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_02 ON executions_visibility (namespace, keyword_02, start_time, run_id) WHERE keyword_02 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_03 ON executions_visibility (namespace, keyword_03, start_time, run_id) WHERE keyword_03 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_04 ON executions_visibility (namespace, keyword_04, start_time, run_id) WHERE keyword_04 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_05 ON executions_visibility (namespace, keyword_05, start_time, run_id) WHERE keyword_05 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_06 ON executions_visibility (namespace, keyword_06, start_time, run_id) WHERE keyword_06 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_07 ON executions_visibility (namespace, keyword_07, start_time, run_id) WHERE keyword_07 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_08 ON executions_visibility (namespace, keyword_08, start_time, run_id) WHERE keyword_08 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_09 ON executions_visibility (namespace, keyword_09, start_time, run_id) WHERE keyword_09 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_10 ON executions_visibility (namespace, keyword_10, start_time, run_id) WHERE keyword_10 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_int_01 ON executions_visibility (namespace, int_01, start_time, run_id) WHERE int_01 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_int_02 ON executions_visibility (namespace, int_02, start_time, run_id) WHERE int_02 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_int_03 ON executions_visibility (namespace, int_03, start_time, run_id) WHERE int_03 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_double_01 ON executions_visibility (namespace, double_01, start_time, run_id) WHERE double_01 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_double_02 ON executions_visibility (namespace, double_02, start_time, run_id) WHERE double_02 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_double_03 ON executions_visibility (namespace, double_03, start_time, run_id) WHERE double_03 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_datetime_01 ON executions_visibility (namespace, datetime_01, start_time, run_id) WHERE datetime_01 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_datetime_02 ON executions_visibility (namespace, datetime_02, start_time, run_id) WHERE datetime_02 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_datetime_03 ON executions_visibility (namespace, datetime_03, start_time, run_id) WHERE datetime_03 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_list_01 ON executions_visibility USING gin (keyword_list_01) WHERE keyword_list_01 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_list_02 ON executions_visibility USING gin (keyword_list_02) WHERE keyword_list_02 IS NOT NULL;
CREATE INDEX IF NOT EXISTS executions_visibility_by_keyword_list_03 ON executions_visibility USING gin (keyword_list_03) WHERE keyword_list_03 IS NOT NULL;
