"""The scale lesson's checkers, one module per step, named after the step's id in lesson.yaml."""
