/**
 * What a twin fit is made of, apart from who fits it: observations of a server, the parametric server a fit
 * adjusts, its parameters, and the report of how well it did.
 */
package dev.headroom.model.fit;
