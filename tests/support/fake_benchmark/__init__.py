"""A fourth benchmark that exists only in the tests: proof that adding a benchmark touches only
its own package and the list in :data:`curate.benchmarks.BENCHMARKS`."""
