"""Commands operators run: each tool family's read-only uses read, everything else writes."""

from __future__ import annotations

import pytest

from rcaloop.judge.actions.commands import judge_line
from rcaloop.judge.actions.tools import FAMILIES

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
        ("kubectl attach api-7d9 -c app", READS),  # streams the running process's output
        ("kubectl attach rs/api -t", READS),  # no -i: kubectl drops the TTY, nothing is sent
        ("kubectl attach api-7d9 -c app -i -t", WRITES),  # stdin goes to the process
        ("oc attach -it api-7d9", WRITES),
        ("kubectl plugin -h", READS),  # cobra: help, nothing runs
        ("kubectl delete pod api-7d9 --help", READS),
        ("kubectl delete pod help", WRITES),  # a name, not the option
        ("helm repo ls", READS),
        ("helm plugin ls", READS),
        ("helm repo rm stable", WRITES),
        ("helm repo add bitnami https://charts.bitnami.com/bitnami", WRITES),
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
        ("docker run --rm busybox nslookup api", READS),  # a throwaway container running a read-only command
        ("docker run --rm -v /etc:/etc:ro alpine cat /etc/hosts", READS),
        ("docker run busybox nslookup api", WRITES),  # the container outlives the command
        ("docker run --rm -v /:/host alpine rm -rf /host/etc", WRITES),
        ("docker run --rm -v /srv:/srv alpine ls /srv", WRITES),  # a writable mount of the host
        ("docker run --rm --privileged alpine iptables -L", WRITES),
        ("docker run --rm --entrypoint sh alpine -c ls", WRITES),
        ("docker run --rm alpine", WRITES),  # the image's own command
        ("docker run --rm ubuntu:22.04 sh -c 'apt-get -qq update; echo rc=$?'", READS),  # stays in the container
        ("docker run --rm curlimages/curl curl -X DELETE https://prod.example/api/x", WRITES),  # reaches out
        ("docker run --rm alpine sh -c 'ssh prod rm -rf /data'", WRITES),
        ("docker run --rm node:18 npm publish", WRITES),
        ("podman kill api", WRITES),
        ("crictl rmp -a", WRITES),
    ],
    "hosts": [
        ("tcpdump -nn -i any port 5432", READS),
        ("tcpdump -i eth0 -w /tmp/cap.pcap port 5432", READS),
        ("tcpdump -i eth0 -w - port 5432", READS),
        ("tcpdump -i eth0 -w /var/lib/postgresql/data/cap.pcap", WRITES),
        ("perf record -a -g -o /tmp/perf.data", READS),
        ("perf record -a -g -o /var/lib/postgresql/data/perf.data", WRITES),
        ("sort -u -k2 access.log", READS),
        ("sort -o /etc/hosts /etc/hosts", WRITES),
        ("smartctl -a /dev/sda", READS),
        ("smartctl -t long /dev/sda", WRITES),
        ("systemd-analyze blame", READS),
        ("systemd-analyze set-log-level debug", WRITES),
        ("ethtool -S eth0", READS),
        ("ethtool -k eth0", READS),
        ("ethtool eth0", READS),
        ("ethtool -K eth0 tso off", WRITES),
        ("ethtool -s eth0 speed 100 duplex full autoneg off", WRITES),
        ("resolvectl status", READS),
        ("resolvectl dns eth0", READS),
        ("resolvectl query db.internal", READS),
        ("resolvectl dns eth0 10.0.0.2", WRITES),
        ("resolvectl flush-caches", WRITES),
        ("systemd-resolve --status", READS),
        ("systemd-resolve --flush-caches", WRITES),
        ("networkctl status eth0", READS),
        ("networkctl down eth0", WRITES),
        ("busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager GetUnit s "
         "postgresql.service", READS),
        ("busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StopUnit ss "
         "postgresql.service replace", WRITES),
        ("busctl set-property org.freedesktop.hostname1 /x org.freedesktop.hostname1 Hostname s h", WRITES),
        ("keytool -list -keystore /etc/app/keystore.jks", READS),
        ("keytool -printcert -file api.crt", READS),
        ("keytool -delete -alias api -keystore /etc/app/keystore.jks", WRITES),
        ("nvidia-smi", READS),
        ("nvidia-smi --query-gpu=utilization.gpu --format=csv -l 5", READS),
        ("nvidia-smi topo -m", READS),
        ("nvidia-smi -r -i 0", WRITES),
        ("nvidia-smi -pl 150", WRITES),
        ("localectl status", READS),
        ("localectl set-locale LANG=C", WRITES),
        ("strace -p 1 -f -e trace=network", READS),
        ("strace -p 1 -e inject=all:error=EIO", WRITES),
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
        ("ip a s up", READS),  # address show
        ("ip r s", READS),
        ("ip n l dev eth0", READS),
        ("ip l s eth0 down", WRITES),  # link set: ip tries set before show
        ("ip a a 10.0.0.5/24 dev eth0", WRITES),
        ("ip a f dev eth0", WRITES),
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
        ("npm run", READS),  # lists the scripts
        ("npm run-script", READS),
        ("npm run build", WRITES),
        ("npm run -- --force", WRITES),
        ("pnpm run", WRITES),  # may install first (verify-deps-before-run)
    ],
    "cloud": [
        ("aws rds download-db-log-file-portion --db-instance-identifier prod-db --log-file-name error/pg.log", READS),
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
        ("aws s3 mb help", READS),
        ("aws rds stop-db-instance help", READS),
        ("aws s3 mb s3://backups", WRITES),
        ("aws ec2 terminate-instances --instance-ids help", WRITES),  # a value, not the help
        ("aws sts assume-role --role-arn arn:aws:iam::1:role/ro --role-session-name rca", READS),
        ("aws iam update-assume-role-policy --role-name ro --policy-document file://trust.json", WRITES),
        ("az container logs -g rg -n api", READS),
        ("az container restart -g rg -n api", WRITES),
        ("az group exists -n rg", READS),
        ("az group delete -n rg --yes", WRITES),
        ("gcloud logging logs delete api-log", WRITES),
    ],
    "infra": [
        ("etcdctl snapshot save /tmp/etcd.db", READS),
        ("etcdctl snapshot status /tmp/etcd.db", READS),
        ("etcdctl snapshot save /var/lib/etcd/member/snap/db", WRITES),
        ("etcdctl snapshot restore /tmp/etcd.db", WRITES),
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
        ("ansible-galaxy role search nginx -vvv", READS),
        ("ansible-galaxy collection list", READS),
        ("ansible-galaxy role install geerlingguy.nginx", WRITES),
        ("ansible-galaxy collection install community.general", WRITES),
        ("ansible-galaxy role delete org repo", WRITES),
        ("ansible-lint site.yml roles/web", READS),
        ("ansible-lint -x yaml -p site.yml", READS),
        ("ansible-lint --fix site.yml", WRITES),
        ("ansible-lint --write=all site.yml", WRITES),
        ("ansible-lint --generate-ignore", WRITES),
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
        ("curl -s http://prometheus:9090/api/v1/query --data-urlencode 'query=up'", READS),
        ("curl -X POST http://loki:3100/loki/api/v1/query_range --data-urlencode 'query={app=\"x\"}'", READS),
        ("curl -XPOST http://es:9200/logs-*/_search -d '{}'", READS),
        ("curl -s http://localhost:15000/stats", READS),
        ("redis-cli -h cache-1 --latency-history -i 5", READS),
        ("redis-cli -h cache-1 LATENCY HISTORY command", READS),
        ("redis-cli -3 MEMORY USAGE sess:1", READS),
        ("curl -XPOST http://es:9200/logs/_delete_by_query -d '{}'", WRITES),
        ("curl -X POST http://prometheus:9090/api/v1/admin/tsdb/delete_series", WRITES),
        ("curl -s -X GET localhost:15000/quitquitquit", WRITES),
        ("curl -s http://localhost:15000/healthcheck/fail", WRITES),
        ("curl -s 'http://localhost:15000/logging?level=debug'", WRITES),
        ("curl -X POST http://localhost:15000/drain_listeners", WRITES),
        ("redis-cli -h cache-1 LATENCY RESET", WRITES),
    ],
    "services": [
        ("kubectl argo rollouts get rollout checkout-api -n prod", READS),
        ("kubectl argo rollouts status checkout-api -n prod", READS),
        ("kubectl argo rollouts list rollouts", READS),
        ("kubectl cnpg status pg-main", READS),  # an unlisted plugin is read as an unknown tool
        ("gh pr list --repo org/shop --state merged", READS),
        ("gh run list --workflow deploy.yml --limit 5", READS),
        ("gh run view 123 --log", READS),
        ("gh api repos/org/shop/deployments", READS),
        ("istioctl analyze -n prod", READS),
        ("istioctl proxy-config clusters api-7d9 -n prod", READS),
        ("linkerd viz stat deploy -n prod", READS),
        ("cmctl status certificate api-tls -n prod", READS),
        ("amtool silence query alertname=HighErrorRate", READS),
        ("amtool alert", READS),
        ("promtool check config prometheus.yml", READS),
        ("celery -A app inspect active", READS),
        ("py-spy dump --pid 1234", READS),
        ("kcat -b kafka:9092 -L", READS),
        ("kcat -b kafka:9092 -C -t orders -o -10 -e", READS),
        ("nginx -t", READS),
        ("pt-query-digest /var/log/mysql/slow.log", READS),
        ("gdb -p 1234 -batch -ex 'thread apply all bt'", READS),
        ("gdb -p 1234 -batch -ex 'print pool->size'", READS),
        ("jcmd 1 Thread.print", READS),
        ("jcmd 1 GC.heap_info", READS),
        ("jmap -dump:live,format=b,file=/tmp/h.hprof 1", READS),
        ("kubectl argo rollouts promote checkout-api", WRITES),
        ("kubectl argo rollouts abort checkout-api", WRITES),
        ("kubectl cnpg promote pg-main 2", WRITES),
        ("kubectl cnpg status pg-main --force", WRITES),
        ("gh pr merge 42", WRITES),
        ("gh run rerun 123", WRITES),
        ("gh api -X DELETE repos/org/shop/deployments/1", WRITES),
        ("istioctl install -y", WRITES),
        ("linkerd inject deploy.yaml", WRITES),
        ("cmctl renew api-tls", WRITES),
        ("amtool silence add alertname=HighErrorRate --duration=4h --comment=noisy", WRITES),
        ("amtool silence expire 1234", WRITES),
        ("promtool tsdb create-blocks-from openmetrics x.om /prometheus", WRITES),
        ("celery -A app purge -f", WRITES),
        ("celery -A app control shutdown", WRITES),
        ("py-spy record -o profile.svg --pid 1234", WRITES),
        ("kcat -b kafka:9092 -P -t orders", WRITES),
        ("nginx -s reload", WRITES),
        ("pt-query-digest --review h=db,D=percona,t=review slow.log", WRITES),
        ("gdb -p 1234 -batch -ex 'call (void)exit(0)'", WRITES),
        ("gdb -p 1234 -batch -ex 'set var pool->size = 50'", WRITES),
        ("gdb -p 1234 -batch -ex 'print close(3)'", WRITES),
        ("jcmd 1 GC.run", WRITES),
        ("jcmd 1 GC.heap_dump /tmp/h.hprof", WRITES),
        ("jcmd 1 VM.set_flag MaxHeapFreeRatio 50", WRITES),
        ("jmap -dump:live,format=b,file=/var/lib/postgresql/data/h.hprof 1", WRITES),
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
