"""The screens of the tutor: the lesson and what is pushed over it."""
