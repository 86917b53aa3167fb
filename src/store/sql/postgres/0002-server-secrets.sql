-- Secrets every server of one database must share (the task-token signing key), created once.
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
