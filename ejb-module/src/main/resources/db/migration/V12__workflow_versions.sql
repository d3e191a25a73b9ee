-- Versioned workflow definitions (issue 15). Each definition a deployment loads is stored under its
-- version (a hash of its canonical JSON, which is what is stored), and every order records the version it
-- was submitted with and runs under it to the end, whatever the definition files say later. Versions are
-- never deleted: the foreign key keeps one that any order names, so an order's definition cannot
-- disappear; any instance can read it, even one whose own files never held it.
CREATE TABLE workflow_version (
    workflow    VARCHAR(64)  NOT NULL,
    version     VARCHAR(16)  NOT NULL,
    definition  TEXT         NOT NULL,
    first_seen  TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (workflow, version)
);
-- Null for orders stored before V12: the application pins their unfinished ones to the definition
-- current when it first starts with versions (WorkflowRegistry), and reads a finished one's as unknown.
ALTER TABLE order_state ADD COLUMN workflow_version VARCHAR(16);
ALTER TABLE order_state ADD CONSTRAINT order_state_workflow_version
    FOREIGN KEY (workflow, workflow_version) REFERENCES workflow_version (workflow, version);
