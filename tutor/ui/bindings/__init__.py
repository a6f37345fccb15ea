"""The keys: every binding in help order (keys.py) and their words in the learner's language
(key_words.py)."""
