"""The lesson is data: every step in both languages, with hints and a recap."""

from __future__ import annotations

import pytest

from tutor.lesson.loader import LessonError, load, split_sections


def test_lesson_shape():
    lesson = load()
    assert lesson.namespace == "infer" and lesson.workdir == "/root/gsb-lws"
    assert lesson.gpu_resource == "nvidia.com/gpu" and set(lesson.languages) == {"ko", "en"}
    assert [s.id for s in lesson.steps] == ["create-llm", "names", "env", "dns", "restart-group", "rollout",
                                          "exclusive", "orphan"]
    for step in lesson.steps:
        assert callable(step.checks().check) and step.checks().READS is not None
        for lang in ("ko", "en"):
            text = step.text(lang)
            assert text.title == step.title(lang)
            assert len(text.hints) >= 3, (step.id, lang)
            assert text.recap and text.body
        assert len(step.text("ko").hints) == len(step.text("en").hints)
    assert set(lesson.answer_files) == {"lws.yaml", "names.txt", "env.txt", "dns.txt", "restart.txt",
                                        "wide.yaml", "partial.txt"}


def test_heading_inside_code_block_is_not_a_section():
    md = "# T\n\nbody\n\n```sh\n## not a heading\n```\n\n## Hint\n\none\n\n## What you just saw\n\nr\n"
    text = split_sections(md, "Hint", "What you just saw", "x.md")
    assert "## not a heading" in text.body and text.hints == ("one",) and text.recap == "r"


def test_titles_keep_their_markup_as_written():
    md = "# Run `kubectl` *now*\n\nbody with **bold**\n\n## Hint: the `-w` flag\n\none\n"
    text = split_sections(md, "Hint", "What you just saw", "x.md")
    assert text.title == "Run `kubectl` *now*" and text.body == "body with **bold**"
    assert text.hints == ("one",)


@pytest.mark.parametrize("md,msg", [
    ("no title\n## Hint\nx", "must start with"),
    ("# T\n## Surprise\nx\n## Hint\ny", "unknown section"),
    ("# T\nbody", "at least one"),
])
def test_bad_markdown_is_reported(md, msg):
    with pytest.raises(LessonError, match=msg):
        split_sections(md, "Hint", "What you just saw", "x.md")
