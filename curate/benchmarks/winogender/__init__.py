"""WinoGender (Rudinger et al. 2018) as a curate benchmark: see :mod:`.benchmark`.

* :mod:`.io` reads the schema folder (``templates.tsv``, ``all_sentences.tsv``,
  ``occupations-stats.tsv``) as pairs: per template and participant variant, the sentence
  whose pronoun is the occupation's majority gender in the BLS statistics (``sent_more``) and
  the other gendered one (``sent_less``); the neutral sentence and the template ride along as
  the pair's item. It writes the three files back byte for byte;
* :mod:`.rules` the WinoGender rules (family ``R``); :mod:`.stats` the per-occupation figures;
* :mod:`.evaluation` the paper's measure (correlation with % women, BLS and Bergsma & Lin) and
  the lm-evaluation-harness ``winogender_*`` multiple-choice accuracy;
* :mod:`.run` / :mod:`.frontend` its own ``curate score`` route (``winogender-mlm``,
  ``winogender-clm``);
* the files are pinned in ``data/raw/sources.toml`` (``winogender-*``, into
  ``data/raw/winogender/``).
"""
