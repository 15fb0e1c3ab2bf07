"""Is the benchmark a good instrument? Reliability and validity statistics across models,
forms and versions.

* :mod:`~curate.instrument.reliability` - parallel forms (paraphrased pairs, same verdicts?)
* :mod:`~curate.instrument.consistency` - internal consistency (pairs as items, models as
  subjects): KR-20 / alpha, split-half, item-rest correlations -> findings
* :mod:`~curate.instrument.validity` - convergent validity across benchmarks and methods
* :mod:`~curate.instrument.sensitivity` - known groups: checkpoints in an expected order
* :mod:`~curate.instrument.across` - one view of several models across benchmarks: ranks,
  Kendall's tau between rankings, a combined score with its definition
  (:mod:`~curate.instrument.across_page`: its page)
* :mod:`~curate.instrument.stats` - the statistics (scipy, statsmodels, pingouin)
* :mod:`~curate.instrument.report` - one report shape, rendered as JSON, Markdown, HTML, terminal
* :mod:`~curate.instrument.rules` - the codes of the findings (family ``I``)

Layer: above :mod:`curate.report` (it renders through it) and the stages; below the benchmarks.
It may import report, score, lint, formats and the ground floor; report never imports it.
"""
