"""Lesson data (yaml + markdown). Installed as the package tutor.lessons."""
