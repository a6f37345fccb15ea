"""The tutor's words in English and Korean, in one home.

- bilingual: the one way to word a message, say(lang, english, korean, **fields) (pick() for a
  pair kept as a value, both() to make one, saying() for a message said later, in the language
  of that moment), the learner's language, and the system's reasons;
- particles: Korean particles that fit the word before them ("{pod:은}");
- command_line: the command line's own words, and argparse's in Korean from argparse.ko.po
  (read by catalogue, laid out in terminal columns by help_layout);
- serving: what `lwstutor serve` says, on its terminal and on its pages.

The keys' words are declared beside Textual's bindings (tutor/ui/bindings/key_words.py), and the cluster's
facts are worded by tutor/narration: nothing here imports textual or the cluster.
"""
