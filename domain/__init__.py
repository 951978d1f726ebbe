"""What every layer shares, below them all: the loop's records, usage, result, trace spans, steps and text analysis."""
