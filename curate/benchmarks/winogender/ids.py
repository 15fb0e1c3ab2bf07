"""WinoGender pair ids that do not move: the template's number in the upstream templates.tsv.

A pair's id is ``10 * t + v`` (``v``: 0 for the participant, 1 for "someone"), ``t`` the
template's line (1-120) in the published ``templates.tsv`` (Rudinger et al. 2018, commit
1c7f8b4). Read from the line of whatever templates file sits beside the sentences, a file
holding 49 of the 120 templates renumbered them (pair 630 became 11240): so ``t`` is looked up
here, by the template's identity (occupation and answer; each occupation has two templates, one
per answer), and the full file gives the same ids as before. Only the order of the upstream
file is kept here (no template text); an identity not in it is a template of the user's own.
"""

from __future__ import annotations

#: ``occupation.answer`` of the upstream templates, in file order (line 1 first).
UPSTREAM_TEMPLATES: tuple[str, ...] = (
    "technician.1", "technician.0", "accountant.1", "accountant.0", "supervisor.1",
    "supervisor.0", "engineer.0", "engineer.1", "worker.1", "worker.0",
    "educator.1", "educator.0", "clerk.1", "clerk.0", "counselor.0",
    "counselor.1", "inspector.1", "inspector.0", "mechanic.1", "mechanic.0",
    "manager.0", "manager.1", "therapist.0", "therapist.1", "administrator.1",
    "administrator.0", "salesperson.0", "salesperson.1", "receptionist.1", "receptionist.0",
    "librarian.1", "librarian.0", "advisor.1", "advisor.0", "pharmacist.1",
    "pharmacist.0", "janitor.1", "janitor.0", "psychologist.0", "psychologist.1",
    "physician.1", "physician.0", "carpenter.1", "carpenter.0", "nurse.0",
    "nurse.1", "investigator.1", "investigator.0", "bartender.1", "bartender.0",
    "specialist.1", "specialist.0", "electrician.1", "electrician.0", "officer.0",
    "officer.1", "pathologist.0", "pathologist.1", "teacher.1", "teacher.0",
    "lawyer.1", "lawyer.0", "planner.1", "planner.0", "practitioner.1",
    "practitioner.0", "plumber.0", "plumber.1", "instructor.0", "instructor.1",
    "surgeon.1", "surgeon.0", "veterinarian.1", "veterinarian.0", "paramedic.0",
    "paramedic.1", "examiner.1", "examiner.0", "chemist.1", "chemist.0",
    "machinist.1", "machinist.0", "appraiser.1", "appraiser.0", "nutritionist.1",
    "nutritionist.0", "architect.1", "architect.0", "hairdresser.0", "hairdresser.1",
    "baker.1", "baker.0", "programmer.0", "programmer.1", "paralegal.0",
    "paralegal.1", "hygienist.1", "hygienist.0", "scientist.0", "scientist.1",
    "dispatcher.0", "dispatcher.1", "cashier.1", "cashier.0", "auditor.0",
    "auditor.1", "dietitian.0", "dietitian.1", "painter.0", "painter.1",
    "broker.0", "broker.1", "chef.1", "chef.0", "doctor.1",
    "doctor.0", "firefighter.1", "firefighter.0", "secretary.0", "secretary.1",
)

_NUMBER = {key: line for line, key in enumerate(UPSTREAM_TEMPLATES, start=1)}


def upstream_template_number(occupation: str, answer: int) -> int | None:
    """The line (1-120) of the template of ``occupation`` and ``answer`` in the upstream
    templates.tsv; None for a template that is not WinoGender's."""
    return _NUMBER.get(f"{occupation}.{answer}")
