# One parametrised image per service:
#   docker build --build-arg SERVICE=harness -t rcaloop-harness .
# Each image installs only contracts + shared + the judge + its own service (the harness image
# carries neither typedb-driver nor asyncssh), at the versions requirements.lock pins.
FROM python:3.11-slim AS base
ARG SERVICE
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    RCALOOP_SERVICE=${SERVICE} RCALOOP_DATA_DIR=/data RCALOOP_ANALYSIS_ROOT=/data/.analysis \
    HTTP_HOST=0.0.0.0 METRICS_HOST=0.0.0.0 KF_RULE_CACHE_DIR=/opt/rcaloop/rule-cache
RUN test -n "$SERVICE" || (echo "build with --build-arg SERVICE=<ingestion|parser|harness|annotation|knowledge|gate>" && false)
WORKDIR /app
COPY requirements.lock ./
COPY contracts/ contracts/
COPY shared/ shared/
COPY judge/ judge/
COPY services/${SERVICE}/ services/${SERVICE}/
# The data directory (and the job files under it) belongs to the service user: a named volume or a
# claim mounted there starts with this ownership, so the service can write to it.
RUN pip install -c requirements.lock ./contracts ./shared ./judge ./services/${SERVICE} \
    && groupadd --system --gid 10001 rcaloop \
    && useradd --system --uid 10001 --gid rcaloop --home-dir /data --no-create-home rcaloop \
    && mkdir -p /data/.analysis \
    && chown -R rcaloop:rcaloop /data
RUN install -d -o rcaloop -g rcaloop -m 700 /opt/rcaloop /opt/rcaloop/rule-cache
USER 10001:10001
# The secret detector's vendor-rule catalog compiled once here (several seconds), so a
# service starts by loading it (under a second).
RUN python -c "from rcaloop.shared import secret_engine; secret_engine.warm()"
VOLUME ["/data"]
# python -m rcaloop.<service>: SIGTERM drains in-flight work within SHUTDOWN_GRACE_S; a task that
# ends on its own turns /healthz to 503 and exits the process non-zero (restarted by the orchestrator).
# In a container the API and /metrics listen on every interface (HTTP_HOST, METRICS_HOST above);
# run outside one they listen on 127.0.0.1 unless told otherwise.
CMD ["sh", "-c", "exec python -m rcaloop.${RCALOOP_SERVICE}"]
