"""Vendor token shapes the project keeps of its own, beside the engine's catalog.

A vendor's prefix and length make a value a credential wherever it stands — in prose, a
command or a log line. The engine (``secret_engine``) knows about 490 vendors by their exact
formats; these shapes are looser (a token cut or reformatted still has its prefix and most of
its length) or cover what its catalog finds only beside a keyword (a Telegram bot token, a
Twilio account key), and they need no engine to run. Each shape has an example in the
detector's tests, and the output contract lists the vendors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Shape:
    """A vendor's token: the type it is reported as, its pattern, and the literals one of
    which it holds (the detector runs the pattern only on words that hold one)."""

    vendor: str
    type: str
    pattern: re.Pattern[str]
    needs: tuple[str, ...]
    min_word: int = 0
    """with no literals: the length of the words the pattern is run on"""

    @property
    def id(self) -> str:
        """The rule id's name: the vendor in lower case, words joined by hyphens."""
        return re.sub(r"[^a-z0-9]+", "-", self.vendor.lower()).strip("-")


_START = r"(?<![A-Za-z0-9_-])"
"""A token starts a word (or follows punctuation: ``=``, ``:``, a quote, a slash)."""


_GITLAB = (
    "glpat-", "glrt-", "gldt-", "glft-", "glsoat-", "glcbt-", "glimt-", "glptt-", "glagent-", "gloas-", "glffct-",
)  # fmt: skip
"""GitLab's token prefixes (the library's rule stops at 50 characters; routable tokens run longer)."""


def _shape(vendor: str, type_: str, pattern: str, *needs: str, min_word: int = 0) -> Shape:
    return Shape(vendor, type_, re.compile(_START + pattern), needs, min_word)


SHAPES: tuple[Shape, ...] = (
    _shape("AWS access key id", "aws-access-key", r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
           "AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
    _shape("GitHub token", "token", r"gh[pousr]_[A-Za-z\d]{36,255}(?![\w-])", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    _shape("Slack token", "token", r"xox[abposr]-(?:\d+-)?[A-Za-z\d-]{10,250}", "xox"),
    _shape("Stripe key", "api-key", r"[rs]k_live_[A-Za-z\d]{16,247}(?![\w-])", "k_live_"),
    _shape("SendGrid API key", "api-key", r"SG\.[\w-]{22}\.[\w-]{43}(?![\w-])", "SG."),
    _shape("JSON web token", "token", r"eyJ[\w-]{8,2000}\.eyJ[\w-]{8,8000}\.[\w-]{0,2000}", "eyJ"),
    _shape("PyPI token", "token", r"pypi-AgE[\w-]{50,1000}", "pypi-"),
    _shape("Telegram bot token", "token", r"\d{8,10}:[\w-]{35}(?![\w-])", min_word=44),
    _shape("Discord bot token", "token", r"[MNO][\w-]{23,25}\.[\w-]{6}\.[\w-]{27,38}(?![\w-])", min_word=59),
    _shape("Mailchimp API key", "api-key", r"[\da-f]{32}-us\d{1,2}(?![\w-])", "-us"),
    _shape("Twilio key", "api-key", r"(?:AC|SK)[\da-f]{32}(?![\w-])", "AC", "SK"),
    _shape("Artifactory token", "api-key", r"AKCp[A-Za-z\d]{69}(?![\w-])", "AKCp"),
    _shape("Artifactory reference token", "token", r"cmVmd[A-Za-z\d]{59}(?![\w-])", "cmVmd"),
    _shape("ClickHouse Cloud secret key", "secret", r"4b1d[A-Za-z\d]{38}(?![\w-])", "4b1d"),
    _shape("Harness API key", "api-key", r"(?:pat|sat)\.[\w-]{22}\.[\da-f]{24}\.[A-Za-z\d]{20}(?![\w-])", "pat.",
           "sat."),
    _shape("Fly.io token", "token", r"(?:fm[12][ar]?_|FlyV1 fm2_)[A-Za-z\d+/]{60,}={0,3}", "fm1", "fm2"),
    _shape("Google API key", "api-key", r"AIza[\w-]{35}", "AIza"),
    _shape("Google OAuth client secret", "secret", r"GOCSPX-[\w-]{28}", "GOCSPX-"),
    _shape("Google OAuth access token", "token", r"ya29\.[\w-]{30,}", "ya29."),
    _shape("Vault token", "token", r"hv[sbr]\.[\w-]{24,}", "hvs.", "hvb.", "hvr."),
    _shape("Vault token (before 1.10)", "token",
           r"s\.(?=[A-Za-z]*\d)(?=[a-z\d]*[A-Z])(?=[A-Z\d]*[a-z])[A-Za-z\d]{24}(?![\w.-])", "s."),
    _shape("OpenAI API key", "api-key", r"sk-(?:proj|svcacct|admin|None)-[\w-]{20,}",
           "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"),
    _shape("OpenAI-style API key", "api-key", r"sk-(?=[a-zA-Z]*\d)(?=\d*[a-zA-Z])[A-Za-z\d]{32,}(?![\w-])", "sk-"),
    _shape("Anthropic API key", "api-key", r"sk-ant-[a-z]{3,6}\d{2}-[\w-]{20,}", "sk-ant-"),
    _shape("GitHub fine-grained token", "token", r"github_pat_\w{40,}", "github_pat_"),
    _shape("GitLab token", "token", r"(?:%s)[\w-]{20,300}" % "|".join(_GITLAB), *_GITLAB),
    _shape("npm token", "token", r"npm_[A-Za-z\d]{36}(?![\w-])", "npm_"),
    _shape("Hugging Face token", "token", r"(?:hf_|api_org_)[A-Za-z\d]{30,}(?![\w-])", "hf_", "api_org_"),
    _shape("Shopify token", "token", r"shp(?:at|ca|pa|ss)_[a-fA-F\d]{32}(?![\w-])",
           "shpat_", "shpca_", "shppa_", "shpss_"),
    _shape("Slack app or refresh token", "token", r"(?:xapp|xoxe(?:\.xox[bp])?)-\d-[A-Za-z\d-]{10,}", "xapp-", "xoxe"),
    _shape("Docker Hub access token", "token", r"dckr_(?:pat|oat)_[\w-]{20,}", "dckr_"),
    _shape("DigitalOcean token", "token", r"do[opr]_v1_[a-f\d]{64}(?![\w-])", "_v1_"),
    _shape("Grafana token", "token", r"(?:glsa_[A-Za-z\d]{32}_[A-Fa-f\d]{8}|glc_[A-Za-z\d+/]{32,}={0,2})",
           "glsa_", "glc_"),
    _shape("Atlassian API token", "api-key", r"ATATT3[\w=-]{60,}", "ATATT3"),
    _shape("Databricks token", "token", r"dapi[a-f\d]{32}(?:-\d)?(?![\w-])", "dapi"),
    _shape("Sentry token", "token", r"sntry[su]_[\w+/=-]{40,}", "sntrys_", "sntryu_"),
    _shape("Doppler token", "token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z\d]{40,}", "dp."),
    _shape("Terraform Cloud token", "token", r"[a-zA-Z\d]{14}\.atlasv1\.[\w=-]{60,}", ".atlasv1."),
    _shape("1Password service account token", "token", r"ops_eyJ[\w+/=-]{50,}", "ops_eyJ"),
    _shape("Stripe webhook signing secret", "secret", r"whsec_[A-Za-z\d+/=]{24,}", "whsec_"),
    _shape("Linear API key", "api-key", r"lin_api_[A-Za-z\d]{40}(?![\w-])", "lin_api_"),
    _shape("Postman API key", "api-key", r"PMAK-[a-f\d]{24}-[a-f\d]{34}(?![\w-])", "PMAK-"),
    _shape("New Relic user key", "api-key", r"NRAK-[A-Z\d]{27}(?![\w-])", "NRAK-"),
    _shape("Heroku API key", "api-key", r"HRKU-[\w-]{30,}", "HRKU-"),
    _shape("Groq API key", "api-key", r"gsk_[A-Za-z\d]{48,}(?![\w-])", "gsk_"),
    _shape("xAI API key", "api-key", r"xai-[A-Za-z\d]{70,}(?![\w-])", "xai-"),
    _shape("LangSmith API key", "api-key", r"lsv2_(?:pt|sk)_[a-f\d]{32}_[a-f\d]{10}(?![\w-])", "lsv2_"),
    _shape("Azure AD client secret", "secret", r"[\w~.]{3}\dQ~[\w~.-]{31,34}(?![\w~.-])", "Q~"),
    _shape("age secret key", "private-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
           "AGE-SECRET-KEY-1"),
)  # fmt: skip
"""Every shape, by vendor: the list the output contract's table of vendors is checked against."""
