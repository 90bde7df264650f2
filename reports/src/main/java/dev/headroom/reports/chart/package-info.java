/**
 * Charts as data, rendered to inline SVG for the HTML reports and to PNG from the same description.
 */
package dev.headroom.reports.chart;
