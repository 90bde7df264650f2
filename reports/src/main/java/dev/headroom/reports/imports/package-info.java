/**
 * Readers of peers' result files (AIPerf, GenAI-Perf, GuideLLM, LLMPerf, vllm bench, SGLang bench) into
 * Headroom's probe results.
 */
package dev.headroom.reports.imports;
