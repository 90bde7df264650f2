/**
 * Hardware, model and engine profiles (configs/) and the step terms of the cost model.
 */
package dev.headroom.sim.profile;
