/**
 * One load point from many processes (docs/distributed.md): {@link dev.headroom.distributed.Worker} runs the share
 * of a point it is handed with the HTTP probe and streams every record back;
 * {@link dev.headroom.distributed.Coordinator} is a {@link dev.headroom.model.Measurer} that splits a point into
 * {@link dev.headroom.model.Share}s, puts every worker on its own clock ({@link dev.headroom.distributed.ClockSync})
 * and hands the merged records on, exactly as one process would have.
 */
package dev.headroom.distributed;
