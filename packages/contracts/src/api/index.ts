// The `/api/v1` request and response schemas, one file per route folder of apps/api.
export {};
