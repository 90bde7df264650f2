package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.Distribution;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionSummary;
import dev.headroom.model.ThinkTime;
import java.util.ArrayList;
import java.util.List;

/** summary.json's {@code sessions} block: what each session did, its metrics by turn, and how the sessions ended. */
final class SessionsJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SessionsJson() {}

    static ObjectNode write(SessionSummary s) {
        ObjectNode o = MAPPER.createObjectNode();
        o.set("spec", writeSpec(s.spec()));
        ObjectNode n = o.putObject("counts");
        n.put("started", s.sessions().started());
        n.put("completed", s.sessions().completed());
        n.put("failed", s.sessions().failed());
        n.put("abandoned", s.sessions().abandoned());
        n.put("good", s.sessions().good());
        n.put("sub_calls_completed", s.subCalls().completed());
        n.put("sub_calls_failed", s.subCalls().failed());
        n.put("dropped_turns", s.droppedTurns());
        o.set("duration_s", SummaryJson.distribution(s.durationS(), 3));
        JsonNumbers.put(o, "goodput_sessions_per_s", s.goodputSessionsPerS(), 4);
        ArrayNode turns = o.putArray("turns");
        for (SessionSummary.Turn t : s.turns()) {
            ObjectNode u = turns.addObject();
            u.put("turn", t.turn());
            u.put("completed", t.completed());
            u.put("failed", t.failed());
            u.set("ttft_ms", SummaryJson.distribution(t.ttftMs(), 3));
            u.set("e2e_ms", SummaryJson.distribution(t.e2eMs(), 3));
            u.set("itl_ms", SummaryJson.distribution(t.itlMs(), 3));
            u.set("isl", SummaryJson.distribution(t.islTokens(), 1));
            ObjectNode c = u.putObject("cache");
            c.put("reporting", t.reporting());
            c.put("prompt_tokens", t.promptTokens());
            c.put("cached_tokens", t.cachedTokens());
            c.put("prefilled_tokens", t.prefilledTokens());
            JsonNumbers.put(c, "cached_fraction", t.cachedFraction(), 4);
        }
        return o;
    }

    /** What each session does, as summary.json and search.json record it. */
    static ObjectNode writeSpec(SessionSpec spec) {
        ObjectNode sp = MAPPER.createObjectNode();
        sp.put("turns", spec.turns());
        sp.put(
                "turn_isl",
                spec.turnInput() == null ? "recorded" : spec.turnInput().text());
        sp.put(
                "turn_osl",
                spec.turnOutput() == null ? "recorded" : spec.turnOutput().text());
        sp.put("think_time", spec.thinkTime().text());
        sp.put("system_prompt_tokens", spec.systemPromptTokens());
        sp.put("fan_out", spec.fanOut());
        sp.put("tool_calls", spec.toolCalls());
        sp.put("max_context", spec.maxContextTokens());
        return sp;
    }

    static SessionSpec readSpec(JsonNode sp) {
        return new SessionSpec(
                sp.path("turns").asInt(),
                sp.path("turn_isl").asText().equals("recorded")
                        ? null
                        : LengthDistribution.parse(sp.path("turn_isl").asText()),
                sp.path("turn_osl").asText().equals("recorded")
                        ? null
                        : LengthDistribution.parse(sp.path("turn_osl").asText()),
                ThinkTime.parse(sp.path("think_time").asText("0s")),
                sp.path("system_prompt_tokens").asInt(),
                sp.path("fan_out").asInt(),
                sp.path("tool_calls").asInt(),
                sp.path("max_context").asInt());
    }

    static SessionSummary read(JsonNode o) {
        JsonNode n = o.path("counts");
        SessionSpec spec = readSpec(o.path("spec"));
        List<SessionSummary.Turn> turns = new ArrayList<>();
        for (JsonNode u : o.path("turns")) {
            JsonNode c = u.path("cache");
            turns.add(new SessionSummary.Turn(
                    u.path("turn").asInt(),
                    u.path("completed").asLong(),
                    u.path("failed").asLong(),
                    SummaryJson.distribution(u.path("ttft_ms")),
                    SummaryJson.distribution(u.path("e2e_ms")),
                    u.has("itl_ms") ? SummaryJson.distribution(u.path("itl_ms")) : Distribution.empty(),
                    SummaryJson.distribution(u.path("isl")),
                    c.path("reporting").asLong(),
                    c.path("prompt_tokens").asLong(),
                    c.path("cached_tokens").asLong()));
        }
        return new SessionSummary(
                spec,
                turns,
                new SessionSummary.Calls(
                        n.path("sub_calls_completed").asLong(),
                        n.path("sub_calls_failed").asLong()),
                new SessionSummary.Sessions(
                        n.path("started").asLong(),
                        n.path("completed").asLong(),
                        n.path("failed").asLong(),
                        n.path("abandoned").asLong(),
                        n.path("good").asLong()),
                SummaryJson.distribution(o.path("duration_s")),
                n.path("dropped_turns").asLong(),
                JsonNumbers.num(o.path("goodput_sessions_per_s")));
    }
}
