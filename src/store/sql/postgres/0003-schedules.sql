-- Schedules: the engine's state of each schedule (spec, action, policies, running and buffered
-- actions, recent outcomes) as JSON, with a version for optimistic concurrency. Its next fire is
-- a row of `timers` (run_id `schedule:<namespace>:<id>`), consumed in the same transaction.
CREATE TABLE schedules (
  namespace TEXT NOT NULL,
  schedule_id TEXT NOT NULL,
  create_time BIGINT NOT NULL,
  state TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (namespace, schedule_id)
);
