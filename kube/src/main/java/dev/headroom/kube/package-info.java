/**
 * Worker pods for a distributed run (docs/distributed.md, "Kubernetes"): {@link dev.headroom.kube.KubeWorkers} makes
 * an Indexed Job of {@code headroom worker}s, a headless Service and a Secret holding the run token through fabric8's
 * client, waits until every pod is ready, hands their addresses to the coordinator and deletes what it made.
 */
package dev.headroom.kube;
