"""The words that label a secret in other languages: data, one place.

A report written in Korean, Japanese, Chinese, Russian, German, French, Spanish, Portuguese
or Italian labels a password as its own language does (``DB 비밀번호: …``, ``パスワード：…``,
``密码: …``, ``пароль: …``, ``Passwort: …``, ``mot de passe : …``, ``clave de API: …``). The
label rule of the detector (``secret_rules``) reads a value after any of these, judged as an
English ``password: …`` is (``secret_values``); a label without a value, or with a word
saying there is none (``토큰: 없음``), is no secret.
"""

from __future__ import annotations

LABELS: dict[str, str] = {
    # Korean
    "비밀번호": "password", "패스워드": "password", "암호": "password", "토큰": "token", "액세스 토큰": "token",
    "API 키": "api-key", "API키": "api-key", "시크릿": "secret", "비밀 키": "secret", "비밀키": "secret",
    # Japanese
    "パスワード": "password", "暗証番号": "password", "トークン": "token", "アクセストークン": "token",
    "APIキー": "api-key", "API キー": "api-key", "シークレット": "secret", "秘密鍵": "private-key",
    # Chinese (simplified and traditional)
    "密码": "password", "密碼": "password", "口令": "password", "令牌": "token", "访问令牌": "token",
    "密钥": "secret", "密鑰": "secret", "秘钥": "secret", "API密钥": "api-key", "API 密钥": "api-key",
    # Russian
    "пароль": "password", "пароль от": "password", "токен": "token", "ключ API": "api-key", "API-ключ": "api-key",
    "секрет": "secret", "секретный ключ": "secret",
    # German
    "Passwort": "password", "Kennwort": "password", "Zugangspasswort": "password", "Geheimnis": "secret",
    "API-Schlüssel": "api-key", "geheimer Schlüssel": "secret", "Zugriffstoken": "token",
    # French
    "mot de passe": "password", "mdp": "password", "jeton": "token", "jeton d'accès": "token", "clé API": "api-key",
    "clé d'API": "api-key", "clé secrète": "secret", "secret partagé": "secret",
    # Spanish
    "contraseña": "password", "contrasena": "password", "clave de API": "api-key", "clave API": "api-key",
    "clave secreta": "secret", "clave de acceso": "password", "token de acceso": "token",
    # Portuguese and Italian
    "senha": "password", "chave de API": "api-key", "chave secreta": "secret", "parola d'ordine": "password",
    "chiave API": "api-key", "chiave segreta": "secret",
}  # fmt: skip
"""Each label and the type of the value it gives."""

NO_VALUE: frozenset[str] = frozenset(
    {"없음", "없다", "미설정", "なし", "無し", "未設定", "无", "無", "没有", "未设置", "нет", "отсутствует", "keine",
     "keins", "leer", "aucun", "aucune", "vide", "ninguno", "ninguna", "vacío", "vacio", "nenhuma", "nenhum",
     "nessuna", "nessuno"}
)  # fmt: skip
"""Words that say there is no value (``토큰: 없음``), in the same languages."""
