/**
 * The HTML report pages of each kind of run directory.
 */
package dev.headroom.reports.html;
