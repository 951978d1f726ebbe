"""Choosing the model by BOUNDLOOP_MODEL, the LLM settings, and prompt overrides with their version."""

from __future__ import annotations

import json

import pytest
from langchain_openai import AzureChatOpenAI, ChatOpenAI

from boundloop.policies.errors import BoundloopError
from boundloop.reasoners.factory import build_reasoner
from boundloop.reasoners.llm import PROMPT_VERSION, LLMReasoner, LLMSettings
from boundloop.reasoners.llm.prompts import DEFAULTS, load_prompts
from boundloop.reasoners.offline import OfflineReasoner
from tests.llm.fakes import ScriptedChat, budget, reasoner


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("BOUNDLOOP_MODEL", "BOUNDLOOP_OPENAI_BASE_URL", "BOUNDLOOP_LLM_METHOD", "BOUNDLOOP_LLM_TIMEOUT",
                 "BOUNDLOOP_LLM_TEMPERATURE", "BOUNDLOOP_LLM_MAX_OUTPUT_TOKENS", "BOUNDLOOP_PROMPTS", "OPENAI_API_KEY",
                 "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_offline_stays_the_default(clean_env):
    assert isinstance(build_reasoner(), OfflineReasoner)


def test_openai_compatible_server_by_base_url(clean_env):
    clean_env.setenv("BOUNDLOOP_MODEL", "openai:qwen2.5:7b")
    clean_env.setenv("BOUNDLOOP_OPENAI_BASE_URL", "http://127.0.0.1:11434/v1")
    clean_env.setenv("BOUNDLOOP_LLM_TIMEOUT", "4")
    built = build_reasoner()
    assert isinstance(built, LLMReasoner) and built.name == "llm:openai:qwen2.5:7b"
    model = built.caller.model
    assert isinstance(model, ChatOpenAI) and model.model_name == "qwen2.5:7b" and model.max_retries == 0
    assert model.openai_api_base == "http://127.0.0.1:11434/v1" and built.caller.settings.call_timeout == 4.0
    assert built.prompt_version == PROMPT_VERSION


def test_azure_deployment_reads_the_azure_environment(clean_env):
    clean_env.setenv("AZURE_OPENAI_ENDPOINT", "https://example.openai.azure.com/")
    clean_env.setenv("AZURE_OPENAI_API_KEY", "test-key")
    clean_env.setenv("OPENAI_API_VERSION", "2024-10-21")
    built = build_reasoner("azure_openai:answers-prod")
    assert isinstance(built, LLMReasoner) and isinstance(built.caller.model, AzureChatOpenAI)
    assert built.caller.model.deployment_name == "answers-prod"


@pytest.mark.parametrize("spec", ["gpt-4o", "openai:", "anthropic:claude"])
def test_unknown_model_specs_are_refused(clean_env, spec):
    with pytest.raises(BoundloopError, match="BOUNDLOOP_MODEL"):
        build_reasoner(spec)


@pytest.mark.parametrize(("name", "value"), [("BOUNDLOOP_LLM_METHOD", "xml"), ("BOUNDLOOP_LLM_TIMEOUT", "soon"),
                                             ("BOUNDLOOP_LLM_TIMEOUT", "-1")])
def test_invalid_settings_fail_at_startup(clean_env, name, value):
    clean_env.setenv(name, value)
    with pytest.raises(BoundloopError, match=f"{name}={value!r} must be"):
        LLMSettings.from_env("openai", "gpt-4o-mini")


def test_a_prompt_override_replaces_that_template_and_changes_the_version(tmp_path):
    path = tmp_path / "prompts.yaml"
    path.write_text("understand: |\n  Classify {strictly}: <question>$question</question>\n")
    prompts = load_prompts(str(path))
    assert prompts.version.startswith(f"{PROMPT_VERSION}+prompts.")
    assert prompts.render("understand", question="Q?") == "Classify {strictly}: <question>Q?</question>\n"
    assert prompts.render("plan", question="Q", query_class="lookup", entities="", answer_type="other",
                          max_subqueries=4).startswith(DEFAULTS["plan"][:30])
    chat = ScriptedChat(script=[{"query_class": "lookup", "entities": [], "answer_type": "other"}])
    llm = reasoner(chat, prompts_path=str(path))
    llm.understand("Q?", budget())
    assert llm.prompt_version == prompts.version and chat.seen[0][1].content.startswith("Classify {strictly}")


@pytest.mark.parametrize(("content", "problem"), [
    (json.dumps({"summarise": "x"}), "unknown template"),
    (json.dumps({"understand": "Classify $query"}), "may use only"),
    (json.dumps({"understand": ""}), "non-empty"),
    ("- just\n- a list\n", "must map"),
])
def test_bad_prompt_overrides_fail_loudly(tmp_path, content, problem):
    path = tmp_path / "prompts.json"
    path.write_text(content)
    with pytest.raises(BoundloopError, match=problem):
        load_prompts(str(path))


def test_a_missing_prompt_file_fails_loudly(tmp_path):
    with pytest.raises(BoundloopError, match="cannot read"):
        load_prompts(str(tmp_path / "missing.yaml"))
