"""Annotation rounds: push flagged pairs to Label Studio, pull the answers, tally decisions.

``form`` names the questions and their stored values (the aliases of the labeling config in
``annotations/crows_validation.xml``); ``tasks`` turns pairs and findings into Label Studio
tasks; ``labelstudio`` talks to the server through the official SDK; ``export`` validates an
export into a snapshot; ``vote`` applies the CrowS-Pairs acceptance rule; ``agreement`` measures
how much the annotators agree; ``precision`` measures each lint rule's precision against the
decisions of tallied rounds; ``order`` orders (and limits) a push by that precision; ``rounds``
keeps the files of a round together.

Layer: a stage. It may import the ground floor and :mod:`curate.formats`; never another stage
(lint, score), a benchmark, the registry or the commands (the pairs reader is handed in).
"""
