"""Commands operators run: each tool family's read-only uses read, everything else writes."""

from __future__ import annotations

import pytest

from rcaloop.shared.actions.commands import judge_line
from rcaloop.shared.actions.tools import FAMILIES

READS, WRITES = False, True

FAMILY_CASES: dict[str, list[tuple[str, bool]]] = {
    "kubernetes": [
        ("kubectl get pods -n payments -o wide", READS),
        ("kubectl -n payments describe pod api-7d9", READS),
        ("kubectl logs deploy/api --since=1h", READS),
        ("kubectl top pod -n payments", READS),
        ("kubectl rollout status deploy/api", READS),
        ("kubectl rollout history deploy/api", READS),
        ("kubectl auth can-i delete pods", READS),
        ("kubectl config get-contexts", READS),
        ("kubectl diff -f deploy.yaml", READS),
        ("kubectl get events --sort-by=.lastTimestamp", READS),
        ("kubectl delete pod api-7d9 --dry-run=server", READS),
        ("kubectl apply -f deploy.yaml --dry-run=client", READS),
        ("kubectl exec pg-0 -- psql -c 'SELECT count(*) FROM pg_stat_activity'", READS),
        ("oc get pods", READS),
        ("helm list -A", READS),
        ("helm history api", READS),
        ("helm get values api", READS),
        ("helm template ./chart", READS),
        ("helm upgrade api ./chart --dry-run", READS),
        ("eksctl get nodegroup --cluster prod", READS),
        ("kubectl set image deploy/api api=registry/api:1.2.3", WRITES),
        ("kubectl rollout restart deploy/api", WRITES),
        ("kubectl rollout undo deploy/api", WRITES),
        ("kubectl scale deploy/api --replicas=0", WRITES),
        ("kubectl edit configmap payments-config", WRITES),
        ("kubectl patch deploy api -p '{\"spec\":{}}'", WRITES),
        ("kubectl delete pod api-7d9", WRITES),
        ("kubectl drain node-3 --ignore-daemonsets", WRITES),
        ("kubectl cordon node-3", WRITES),
        ("kubectl apply -f deploy.yaml", WRITES),
        ("kubectl label node node-3 pool=spare", WRITES),
        ("kubectl debug node/node-3 -it --image=busybox", WRITES),
        ("kubectl cp pg-0:/tmp/dump.sql dump.sql", WRITES),
        ("kubectl frobnicate pods", WRITES),  # an unknown subcommand writes (fail closed)
        ("kubectl exec -it pg-0 -- psql -c 'UPDATE accounts SET balance = 0'", WRITES),
        ("kubectl exec pg-0 -c db -- rm -rf /var/lib/postgresql/data", WRITES),
        ("oc adm drain node-3", WRITES),
        ("helm upgrade api ./chart --set image.tag=1.2.3", WRITES),
        ("helm rollback api 41", WRITES),
        ("helm uninstall api", WRITES),
        ("eksctl scale nodegroup --cluster prod --nodes 0 ng-1", WRITES),
    ],
    "containers": [
        ("docker ps -a", READS),
        ("docker logs --tail 100 api", READS),
        ("docker inspect api", READS),
        ("docker stats --no-stream", READS),
        ("docker image ls", READS),
        ("docker compose logs api", READS),
        ("docker-compose ps", READS),
        ("podman ps", READS),
        ("crictl ps", READS),
        ("docker exec api cat /etc/hosts", READS),
        ("docker restart api", WRITES),
        ("docker rm -f api", WRITES),
        ("docker system prune -af", WRITES),
        ("docker compose up -d", WRITES),
        ("docker compose restart api", WRITES),
        ("docker-compose down -v", WRITES),
        ("docker exec -it db psql -c 'DROP TABLE sessions'", WRITES),
        ("docker compose exec db psql -c 'TRUNCATE jobs'", WRITES),
        ("docker run --rm busybox nslookup api", WRITES),
        ("podman kill api", WRITES),
        ("crictl rmp -a", WRITES),
    ],
    "hosts": [
        ("systemctl status nginx", READS),
        ("systemctl list-units --failed", READS),
        ("systemctl is-active nginx", READS),
        ("systemctl cat nginx", READS),
        ("service nginx status", READS),
        ("journalctl -u nginx --since '1 hour ago'", READS),
        ("dmesg -T", READS),
        ("cat /etc/resolv.conf", READS),
        ("tail -f /var/log/syslog | grep -i error", READS),
        ("df -h", READS),
        ("ps aux --sort=-%mem", READS),
        ("ss -tlnp", READS),
        ("dig +short api.internal", READS),
        ("openssl x509 -in cert.pem -noout -dates", READS),
        ("iptables -L -n -v", READS),
        ("iptables -nvL", READS),
        ("ip addr show", READS),
        ("sysctl vm.swappiness", READS),
        ("crontab -l", READS),
        ("find /var/log -name '*.gz' -mtime +7", READS),
        ("sed -n '1,20p' /etc/nginx/nginx.conf", READS),
        ("sudo journalctl -xe", READS),
        ("watch -n 5 kubectl get pods", READS),
        ("timeout 10 curl -s http://api/health", READS),
        ("ssh db-1 'df -h'", READS),
        ("bash -c 'cat /proc/meminfo'", READS),
        ("systemctl restart nginx", WRITES),
        ("sudo systemctl stop postgresql", WRITES),
        ("systemctl daemon-reload", WRITES),
        ("service nginx reload", WRITES),
        ("journalctl --vacuum-size=500M", WRITES),
        ("rm -rf /var/cache/app", WRITES),
        ("mv /etc/nginx/nginx.conf /tmp", WRITES),
        ("kill -9 4242", WRITES),
        ("pkill -f gunicorn", WRITES),
        ("killall java", WRITES),
        ("reboot", WRITES),
        ("shutdown -r now", WRITES),
        ("chmod 777 /var/run/app.sock", WRITES),
        ("chown -R app:app /srv", WRITES),
        ("dd if=/dev/zero of=/dev/sdb bs=1M", WRITES),
        ("mkfs.ext4 /dev/sdb1", WRITES),
        ("truncate -s 0 /var/log/app.log", WRITES),
        ("sed -i 's/5/50/' /etc/app/pool.conf", WRITES),
        ("echo 3 > /proc/sys/vm/drop_caches", WRITES),
        ("grep -v bad app.conf > app.conf.new", WRITES),
        ("cat patch.conf | tee -a /etc/app.conf", WRITES),
        ("iptables -F", WRITES),
        ("iptables -t nat -A POSTROUTING -j MASQUERADE", WRITES),
        ("ip link set eth0 down", WRITES),
        ("sysctl -w net.core.somaxconn=4096", WRITES),
        ("crontab -r", WRITES),
        ("find /tmp -name '*.lock' -delete", WRITES),
        ("find /srv -name '*.pid' -exec rm {} \\;", WRITES),
        ("env FOO=1 kubectl delete ns staging", WRITES),
        ("sudo -u postgres psql -c 'DROP DATABASE app'", WRITES),
        ("ssh db-1 'sudo systemctl restart postgresql'", WRITES),
        ("ssh -i key.pem admin@db-1 sudo reboot", WRITES),
        ("bash -c 'rm -rf /srv/cache/*'", WRITES),
        ("sh -lc 'kill -HUP 1'", WRITES),
        ("nohup ./cleanup.sh &", WRITES),
        ("watch -n 1 'kubectl delete pod -l app=api'", WRITES),
        ("xargs kubectl delete pod", WRITES),
        ("kubectl get pods -o name | xargs kubectl delete", WRITES),
        ("for p in $(kubectl get pods -o name); do kubectl delete $p; done", WRITES),
        ("python3 -c 'import shutil; shutil.rmtree(\"/srv\")'", WRITES),
        ("./fix_pool.sh --apply", WRITES),
    ],
    "packages": [
        ("apt list --installed", READS),
        ("apt-cache policy nginx", READS),
        ("apt-get -s upgrade", READS),
        ("dpkg -l | grep nginx", READS),
        ("yum list installed", READS),
        ("dnf history", READS),
        ("rpm -qa", READS),
        ("apk info", READS),
        ("zypper search nginx", READS),
        ("pip freeze", READS),
        ("pip show requests", READS),
        ("python -m pip list", READS),
        ("pip install --dry-run requests==2.31", READS),
        ("npm ls", READS),
        ("npm audit", READS),
        ("npm view lodash version", READS),
        ("brew list", READS),
        ("brew services list", READS),
        ("apt-get install -y nginx", WRITES),
        ("apt upgrade", WRITES),
        ("apt-get purge nginx", WRITES),
        ("dpkg -i app.deb", WRITES),
        ("yum remove nginx", WRITES),
        ("dnf downgrade openssl", WRITES),
        ("rpm -e nginx", WRITES),
        ("apk add curl", WRITES),
        ("zypper update", WRITES),
        ("pip install -U requests", WRITES),
        ("pip uninstall -y requests", WRITES),
        ("npm install", WRITES),
        ("npm audit fix --force", WRITES),
        ("brew upgrade", WRITES),
        ("brew services restart postgresql", WRITES),
        ("snap refresh", WRITES),
    ],
    "cloud": [
        ("aws ec2 describe-instances --filters Name=tag:app,Values=api", READS),
        ("aws --region eu-west-1 rds describe-db-instances", READS),
        ("aws s3 ls s3://backups/", READS),
        ("aws logs tail /aws/lambda/api --since 1h", READS),
        ("aws logs filter-log-events --log-group-name api", READS),
        ("aws sts get-caller-identity", READS),
        ("aws cloudwatch get-metric-statistics --namespace AWS/RDS", READS),
        ("aws ec2 terminate-instances --instance-ids i-1 --dry-run", READS),
        ("gcloud compute instances list", READS),
        ("gcloud sql instances describe prod-db", READS),
        ("gcloud logging read 'severity>=ERROR' --limit 50", READS),
        ("gcloud container clusters get-credentials prod", READS),
        ("az vm list -o table", READS),
        ("az aks show -g rg -n prod", READS),
        ("az monitor metrics list --resource x", READS),
        ("gsutil ls gs://backups", READS),
        ("aws ec2 terminate-instances --instance-ids i-1", WRITES),
        ("aws ec2 stop-instances --instance-ids i-1", WRITES),
        ("aws rds reboot-db-instance --db-instance-identifier prod", WRITES),
        ("aws s3 rm s3://backups/ --recursive", WRITES),
        ("aws s3 sync ./build s3://site", WRITES),
        ("aws autoscaling set-desired-capacity --desired-capacity 0", WRITES),
        ("aws ecs update-service --force-new-deployment --service api", WRITES),
        ("gcloud compute instances delete vm-1 --zone europe-west1-b", WRITES),
        ("gcloud sql instances restart prod-db", WRITES),
        ("gcloud container clusters resize prod --num-nodes 0", WRITES),
        ("gcloud compute ssh vm-1 --command 'sudo reboot'", WRITES),
        ("az vm restart -g rg -n vm-1", WRITES),
        ("az aks scale -g rg -n prod --node-count 1", WRITES),
        ("gsutil rm -r gs://backups/old", WRITES),
    ],
    "infra": [
        ("terraform plan -out=tf.plan", READS),
        ("terraform show", READS),
        ("terraform state list", READS),
        ("terraform validate", READS),
        ("terraform output -json", READS),
        ("terraform fmt -check", READS),
        ("ansible-playbook site.yml --check --diff", READS),
        ("ansible all -m ping", READS),
        ("ansible web -m shell -a 'uptime'", READS),
        ("git log --oneline -20", READS),
        ("git diff HEAD~1", READS),
        ("git status", READS),
        ("git branch -a", READS),
        ("git config --get remote.origin.url", READS),
        ("vault read secret/app", READS),
        ("vault kv get secret/app", READS),
        ("vault token lookup", READS),
        ("etcdctl endpoint health", READS),
        ("patronictl list", READS),
        ("pg_ctl status -D /var/lib/postgresql/data", READS),
        ("terraform apply -auto-approve", WRITES),
        ("terraform destroy", WRITES),
        ("terraform state rm aws_instance.api", WRITES),
        ("terraform import aws_instance.api i-1", WRITES),
        ("terraform fmt", WRITES),
        ("ansible-playbook site.yml", WRITES),
        ("ansible web -m service -a 'name=nginx state=restarted'", WRITES),
        ("ansible web -m shell -a 'systemctl restart nginx'", WRITES),
        ("git push --force origin main", WRITES),
        ("git reset --hard HEAD~1", WRITES),
        ("git revert abc123", WRITES),
        ("git branch -D release", WRITES),
        ("git config user.email x@y", WRITES),
        ("vault kv put secret/app password=x", WRITES),
        ("vault token revoke -self", WRITES),
        ("vault operator seal", WRITES),
        ("etcdctl del /registry/pods --prefix", WRITES),
        ("etcdctl defrag", WRITES),
        ("patronictl switchover --force", WRITES),
        ("pg_ctl restart -D /var/lib/postgresql/data", WRITES),
        ("pg_ctlcluster 15 main restart", WRITES),
    ],
    "clients": [
        ("psql -h db -U app -c 'SELECT count(*) FROM orders'", READS),
        ("psql -c 'EXPLAIN SELECT * FROM orders'", READS),
        ("psql -c '\\dt+'", READS),
        ("mysql -e 'SHOW PROCESSLIST'", READS),
        ("sqlite3 app.db '.tables'", READS),
        ("redis-cli INFO memory", READS),
        ("redis-cli -h cache GET session:42", READS),
        ("redis-cli CONFIG GET maxmemory", READS),
        ("redis-cli --bigkeys", READS),
        ("redis-cli SCAN 0 MATCH 'sess:*'", READS),
        ("mongosh --eval 'db.orders.find({status: \"failed\"}).count()'", READS),
        ("mongosh --eval 'rs.status()'", READS),
        ("mongosh shop --eval 'db.orders.aggregate([{$match: {s: 1}}]).toArray()'", READS),
        ("curl -s http://api:8080/health", READS),
        ("curl -I https://api.example.com", READS),
        ("curl -G -d 'q=errors' http://search/api", READS),
        ("wget -qO- http://api/metrics", READS),
        ("psql -c 'UPDATE accounts SET balance = 0 WHERE id = 7'", WRITES),
        ("psql -c 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity'", WRITES),
        ("psql -f fix.sql", WRITES),
        ("echo 'DROP TABLE sessions' | psql", WRITES),
        ("psql < migrate.sql", WRITES),
        ("mysql -e 'KILL 12345'", WRITES),
        ("sqlite3 app.db 'DELETE FROM jobs'", WRITES),
        ("redis-cli FLUSHALL", WRITES),
        ("redis-cli -h cache DEL session:42", WRITES),
        ("redis-cli CONFIG SET maxmemory 2gb", WRITES),
        ("redis-cli --cluster fix cache:6379", WRITES),
        ("echo FLUSHDB | redis-cli", WRITES),
        ("mongosh --eval 'db.orders.deleteMany({})'", WRITES),
        ("mongosh --eval 'db.orders.purgeOld()'", WRITES),  # a call that cannot be read here
        ("mongosh --eval 'db.orders.find().forEach(d => db.archive.save(d))'", WRITES),
        ("curl -X POST http://api:8080/admin/reindex", WRITES),
        ("curl -XDELETE http://es:9200/logs-2024", WRITES),
        ("curl -d '{\"replicas\": 0}' http://api/scale", WRITES),
        ("curl http://prometheus:9090/-/reload", WRITES),
        ("curl -T dump.sql ftp://backup/", WRITES),
        ("wget --post-data 'x=1' http://api/jobs", WRITES),
        ("http POST api/jobs name=reindex", WRITES),
    ],
}


def _family(module) -> str:
    return module.__name__.rsplit(".", 1)[-1]


def test_every_tool_family_has_reading_and_writing_cases():
    assert set(FAMILY_CASES) == {_family(m) for m in FAMILIES}
    for family, cases in FAMILY_CASES.items():
        assert {w for _, w in cases} == {READS, WRITES}, family


@pytest.mark.parametrize(
    "line, writes", [c for cases in FAMILY_CASES.values() for c in cases], ids=lambda v: v if isinstance(v, str) else ""
)
def test_a_command_reads_only_when_its_tool_lists_the_use_as_read_only(line, writes):
    verdict = judge_line(line)
    assert verdict is not None, line
    assert verdict.writes is writes, verdict


@pytest.mark.parametrize("span", ["db.pool.max_size", "payments", "503 Service Unavailable",
                                  "/healthz/keys", "set -e", "echo done", "cd /srv", "/var/log/nginx/error.log"])
def test_identifiers_and_harmless_shell_words_are_no_command(span):
    assert judge_line(span) is None


@pytest.mark.parametrize("span", ["connection refused", "poolctl zeroize checkout-api", "/opt/app/bin/failover"])
def test_words_of_no_known_tool_write_only_where_they_stand_as_the_command(span):
    verdict = judge_line(span)
    assert verdict is not None and verdict.writes and verdict.unread, verdict


@pytest.mark.parametrize("line, word", [
    ("openstack server delete web-1", "delete"), ("salt '*' service.restart pgbouncer", "service.restart"),
    ("heroku pg:reset DATABASE_URL", "pg:reset"), ("mycloud bucket delete-bucket logs", "delete-bucket"),
    ("rmqadmin purge_queue orders", "purge_queue"), ("glab ci retry", "retry"),
    ("mytool DeleteBucket logs", "DeleteBucket"), ("salt '*' cmd.run 'systemctl restart x'", "systemctl restart"),
])
def test_an_unknown_tool_writes_when_any_of_its_words_names_a_change(line, word):
    verdict = judge_line(line)
    assert verdict is not None and verdict.writes and not verdict.unread and verdict.verb.endswith(word), verdict


@pytest.mark.parametrize("line", ["gh run list", "doctl compute load-balancer list", "mytool status",
                                  "heroku pg:info", "openstack server list"])
def test_words_that_name_things_more_often_than_they_act_decide_nothing(line):
    verdict = judge_line(line)
    assert verdict is not None and not verdict.writes, verdict


@pytest.mark.parametrize("line, writes", [
    ("kubectl delete pod x # not a --dry-run", True),
    ("kubectl delete pod x --reason '--dry-run'", True),
    ("kubectl delete pod x --dry-run=client # safe", False),
    ("curl http://x/#/status", False),
    ("redis-cli GET 'key#1'", False),
])
def test_a_comment_or_a_quoted_option_is_no_guard_flag(line, writes):
    verdict = judge_line(line)
    assert verdict is not None and verdict.writes is writes, verdict


@pytest.mark.parametrize("line, verb", [
    ("kubectl delete secret vault-approle -n deploy", "kubectl delete"),
    ("kubectl set image deploy/api api=x:1", "kubectl set image"),
    ("rm -rf /var/cache/app", "rm -rf"),
    ("kubectl exec -it pg-0 -- psql -c 'UPDATE accounts SET x = 1'", "UPDATE"),
    ("aws ec2 terminate-instances --instance-ids i-1", "aws ec2 terminate-instances"),
    ("echo 3 > /proc/sys/vm/drop_caches", "echo > /proc/sys/vm/drop_caches"),
])
def test_the_verb_names_what_makes_a_command_write(line, verb):
    assert judge_line(line).verb == verb


def test_wrappers_are_read_only_so_deep_and_deeper_nesting_writes():
    line = "sudo env A=1 timeout 5 nice bash -c \"ssh h 'sudo kubectl get pods'\""
    assert judge_line(line).writes is True  # past the depth the classifier reads, nothing is shown read-only
    assert judge_line("sudo bash -c 'kubectl get pods'").writes is False


@pytest.mark.parametrize("line", [
    "kubectl exec pg-0 -- psql -c \"UPDATE accounts SET balance = 0",  # unclosed quote
    "bash -c 'rm -rf /srv",
    "psql -c 'DELETE FROM jobs",
])
def test_an_unclosed_quote_is_closed_at_the_end_of_the_line(line):
    assert judge_line(line).writes is True
