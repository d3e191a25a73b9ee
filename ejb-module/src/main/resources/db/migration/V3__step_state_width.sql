-- Step states such as CompensationFailed (18 characters) do not fit the original VARCHAR(16).
ALTER TABLE step_state ALTER COLUMN state TYPE VARCHAR(24);
