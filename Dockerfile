# One parametrised image per service:
#   docker build --build-arg SERVICE=harness -t rcaloop-harness .
# Each image installs only contracts + shared + its own service (the harness image
# carries neither typedb-driver nor asyncssh).
FROM python:3.11-slim AS base
ARG SERVICE
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    RCALOOP_SERVICE=${SERVICE} RCALOOP_DATA_DIR=/data \
    HTTP_HOST=0.0.0.0 METRICS_HOST=0.0.0.0
RUN test -n "$SERVICE" || (echo "build with --build-arg SERVICE=<ingestion|parser|harness|annotation|knowledge|gate>" && false)
WORKDIR /app
COPY contracts/ contracts/
COPY shared/ shared/
COPY services/${SERVICE}/ services/${SERVICE}/
RUN pip install ./contracts ./shared ./services/${SERVICE} \
    && useradd --system --uid 10001 rcaloop && mkdir -p /data && chown rcaloop /data
USER rcaloop
VOLUME ["/data"]
# python -m rcaloop.<service>: SIGTERM drains in-flight work within SHUTDOWN_GRACE_S; a task that
# ends on its own turns /healthz to 503 and exits the process non-zero (restarted by the orchestrator).
# In a container the API and /metrics listen on every interface (HTTP_HOST, METRICS_HOST above);
# run outside one they listen on 127.0.0.1 unless told otherwise.
CMD ["sh", "-c", "exec python -m rcaloop.${RCALOOP_SERVICE}"]
