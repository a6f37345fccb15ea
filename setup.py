"""The packages, found by pattern: tutor's, and the lessons', which lessons/ holds and which
install as tutor.lessons (pyproject.toml's package-dir). pyproject.toml says everything else;
its [tool.setuptools.packages.find] cannot give the packages it finds another name. Namespace
packages too: a lesson's steps/ is data only, with no __init__.py."""

from setuptools import find_namespace_packages, setup

SKIP = ["__pycache__", "*.__pycache__"]

setup(packages=[*find_namespace_packages(include=["tutor", "tutor.*"], exclude=SKIP),
                *(f"tutor.{name}" for name in find_namespace_packages(include=["lessons", "lessons.*"], exclude=SKIP))])
