/**
 * Writers and readers of Headroom's own results: JSON (versioned schemas), CSV, console tables, run-directory
 * files; formats only write typed results, they compute nothing.
 */
package dev.headroom.reports;
