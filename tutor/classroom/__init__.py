"""A class: learners' tutors report their step statuses to one server; the instructor reads them.

report (what a tutor may send, and nothing else), store (the class on disk, SQLite), server (the
class server, aiohttp), sender (the tutor's side: a queue drained off the UI's path), address
(the addresses the server prints and a tutor joins). Nothing here imports the UI or Textual.
"""
