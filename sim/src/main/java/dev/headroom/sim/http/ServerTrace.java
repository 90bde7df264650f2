package dev.headroom.sim.http;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The server's own record of one request: when it arrived, when each token was due and actually written, and
 * how it ended. Times are Unix-epoch microseconds, so a client on the same machine can measure its own error.
 */
record ServerTrace(
        @JsonProperty("id") String id,
        @JsonProperty("number") long number,
        @JsonProperty("endpoint") String endpoint,
        @JsonProperty("fault") String fault,
        @JsonProperty("outcome") String outcome,
        @JsonProperty("prompt_tokens") int promptTokens,
        @JsonProperty("completion_tokens") int completionTokens,
        @JsonProperty("preemptions") int preemptions,
        @JsonProperty("arrival_us") long arrivalMicros,
        @JsonProperty("scheduled_us") long scheduledMicros,
        @JsonProperty("first_token_us") long firstTokenMicros,
        @JsonProperty("end_us") long endMicros,
        @JsonProperty("token_intended_us") long[] tokenIntendedMicros,
        @JsonProperty("token_written_us") long[] tokenWrittenMicros) {}
