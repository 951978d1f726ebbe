"""A real LDAP directory for the tests: Debian's slapd on a free port, a temporary database, users and groups."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.identity.provider import stop
from tests.service.servers import free_port

SUFFIX = "dc=example,dc=com"
ROOT_DN = f"cn=admin,{SUFFIX}"
ROOT_PW = "test-only-password"
SEED = f"""dn: {SUFFIX}
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ou=people,{SUFFIX}
objectClass: organizationalUnit
ou: people

dn: ou=groups,{SUFFIX}
objectClass: organizationalUnit
ou: groups

dn: uid=dave,ou=people,{SUFFIX}
objectClass: inetOrgPerson
uid: dave
cn: Dave
sn: D

dn: uid=erin,ou=people,{SUFFIX}
objectClass: inetOrgPerson
uid: erin
cn: Erin
sn: E

dn: cn=hr,ou=groups,{SUFFIX}
objectClass: groupOfNames
cn: hr
member: {ROOT_DN}
member: uid=dave,ou=people,{SUFFIX}

dn: cn=all-staff,ou=groups,{SUFFIX}
objectClass: groupOfNames
cn: all-staff
member: cn=hr,ou=groups,{SUFFIX}
member: uid=erin,ou=people,{SUFFIX}
"""


@dataclass
class Slapd:
    url: str

    def modify(self, ldif: str) -> None:
        subprocess.run(["ldapmodify", "-x", "-H", self.url, "-D", ROOT_DN, "-w", ROOT_PW], input=ldif, text=True,
                       check=True, capture_output=True)


def start_slapd(tmp: Path) -> Iterator[Slapd]:
    """slapd with a temporary mdb database seeded with dave (hr, and all-staff through hr) and erin (all-staff)."""
    slapd = shutil.which("slapd") or ("/usr/sbin/slapd" if Path("/usr/sbin/slapd").exists() else None)
    if slapd is None or shutil.which("ldapadd") is None:
        pytest.skip("slapd and ldap-utils are not installed (apt-get install slapd ldap-utils; "
                    "see scripts/ci-services.sh)")
    (tmp / "db").mkdir()
    conf = tmp / "slapd.conf"
    conf.write_text("\n".join([
        *(f"include /etc/ldap/schema/{name}.schema" for name in ("core", "cosine", "inetorgperson")),
        "modulepath /usr/lib/ldap", "moduleload back_mdb", f"pidfile {tmp / 'slapd.pid'}",
        "database mdb", "maxsize 10485760", f'suffix "{SUFFIX}"', f'rootdn "{ROOT_DN}"', f"rootpw {ROOT_PW}",
        f"directory {tmp / 'db'}", ""]))
    url = f"ldap://127.0.0.1:{free_port()}"
    process = subprocess.Popen([slapd, "-f", str(conf), "-h", url + "/", "-d", "0"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            added = subprocess.run(["ldapadd", "-x", "-H", url, "-D", ROOT_DN, "-w", ROOT_PW], input=SEED,
                                   text=True, capture_output=True)
            if added.returncode == 0:
                break
            if process.poll() is not None:
                raise RuntimeError("slapd exited at start")
            time.sleep(0.1)
        else:
            raise RuntimeError(f"cannot seed slapd: {added.stderr}")
        yield Slapd(url)
    finally:
        stop(process)
