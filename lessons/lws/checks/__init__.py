"""The LWS lesson's checkers, one module per step, named after the step's id in lesson.yaml
(`restart-group` -> restart_group.py). Each has check(ctx) -> Verdict and READS, what it reads
(tutor/checks/reads.py); the lesson loader imports a step's module the first time it runs."""
