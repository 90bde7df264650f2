/**
 * The picocli commands, one class each, with their option mixins: they parse, wire the libraries and print;
 * {@link dev.headroom.cli.ExitCodes} maps every exception to the one exit-code table of docs/cli.md.
 */
package dev.headroom.cli;
