// Job payload schemas (the job definitions, with timeout and retry policy, live in @iot/jobs).
export {};
