"""AUL and AULA (Kaneko & Bollegala 2022), ported literally from ``evaluate.py``.

``calculate_aul`` of kanekomasahiro/evaluate_bias_in_mlm: one forward pass on the unmasked
sentence (encoded with special tokens, lower-cased for an uncased model), ``log_softmax`` of the
logits, the log-probability of each position's own token, the first and last position (the
special tokens) dropped, and the mean. With ``attention`` (AULA, as mlm-bias's ``compute_aul``):
the attentions of all layers concatenated and averaged over layers, then heads, then the query
axis (the attention each token receives), multiplying each log-probability before the mean.
Run at batch size 1 with eager attention (the only one that returns attention weights), sharing
no code with :mod:`curate.score`.
"""

from __future__ import annotations

import torch


def calculate_aul(model, token_ids, log_softmax, attention: bool) -> float:
    """Kaneko & Bollegala's ``calculate_aul`` (the score only)."""
    output = model(token_ids)
    logits = output.logits.squeeze(0)
    log_probs = log_softmax(logits)
    token_ids = token_ids.view(-1, 1).detach()
    token_log_probs = log_probs.gather(1, token_ids)[1:-1]
    if attention:
        attentions = torch.mean(torch.cat(output.attentions, 0), 0)
        averaged_attentions = torch.mean(attentions, 0)
        averaged_token_attentions = torch.mean(averaged_attentions, 0)
        token_log_probs = token_log_probs.squeeze(1) * averaged_token_attentions[1:-1]
    sentence_log_prob = torch.mean(token_log_probs)
    return sentence_log_prob.item()


def load_reference_model(path):
    """The model as ``evaluate.py`` loads it (attentions returned: eager attention)."""
    from transformers import AutoModelForMaskedLM

    model = AutoModelForMaskedLM.from_pretrained(
        path, output_attentions=True, attn_implementation="eager", dtype=torch.float32
    )
    model.eval()
    return model


def reference_pair_scores(pair, model, tokenizer, uncased: bool, attention: bool):
    """``(sent_more_score, sent_less_score)`` of a pair as evaluate.py computes them."""
    log_softmax = torch.nn.LogSoftmax(dim=1)
    sent_more, sent_less = pair.sent_more, pair.sent_less
    if uncased:
        sent_more, sent_less = sent_more.lower(), sent_less.lower()
    more_ids = tokenizer.encode(sent_more, return_tensors="pt")
    less_ids = tokenizer.encode(sent_less, return_tensors="pt")
    with torch.no_grad():
        more = calculate_aul(model, more_ids, log_softmax, attention)
        less = calculate_aul(model, less_ids, log_softmax, attention)
    return more, less
