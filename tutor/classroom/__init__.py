"""A class: learners' tutors report their step statuses to one server; the instructor reads them.

report (what a tutor may send, and nothing else), class_store (the class on disk, SQLite),
class_server (the class server, aiohttp), sender (the tutor's side: a queue drained off the UI's
path), learner_keys (the keys a tutor was given, kept for its restart), address (the addresses
the server prints and a tutor joins), grid (the instructor's view as data), class_page (that
view as a page), state_reader (the terminal view's reads). Nothing here imports the UI or Textual.
"""
