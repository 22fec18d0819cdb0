// Delivery: mail (SMTP or the outbox), SMS and voice through Twilio, the SSRF-guarded http request, and
// the downlink transports (MQTT, ChirpStack, The Things Stack). Used by the notifier and the API.
export {};
