"""Users, the account, clouds, cloud credentials and their regions, licences."""

import base64
import binascii
from fastapi import Depends, Request, Response

from . import catalog, views
from .clock import iso
from .audit import changed_fields
from .auth import Caller, admin, authenticated, writer
from .errors import ServiceError, conflict, forbidden, invalid, not_found
from .models import (Account, ApiToken, ChangePassword, Cloud, CloudCredentials, CloudCredentialsPatch,
                     CloudCredentialsRequest, ExtendedAccountInfo, Items, License, Message, Region,
                     SetPassword, User, UserCreate, UserRolesRequest)
from .patching import settable
from .routing import Page, ServiceRouter, paging
from .state import Credentials
from .state import User as UserRecord

router = ServiceRouter()
MIN_PASSWORD = 8


def _sim(request):
    return request.app.state.sim


# -- the current user and other users ---------------------------------------------------------


@router.get("/me", response_model=User, tags=["users"])
async def me(request: Request, caller: Caller = Depends(authenticated)):
    return views.user(_sim(request), caller.user, with_token=True)


@router.post("/users", response_model=User, status_code=201, tags=["users"])
async def create_user(body: UserCreate, request: Request, caller: Caller = Depends(admin)):
    sim = _sim(request)
    username = body.username.strip().lower()
    if any(u.username == username and u.status != "DELETED" for u in sim.users.values()):
        raise conflict("A user named %s exists." % username)
    user = UserRecord(id=sim.new_id(), account_id=caller.user.account_id, username=username,
                      roles=["USER"], status="PENDING", api_token=sim.new_token(), terms_accepted=False)
    sim.users[user.id] = user
    sim.outbox.append({"to": username, "kind": "invitation", "token": sim.new_token()})
    sim.record(caller.user, "USER_CREATED", "User %s invited." % username)
    return views.user(sim, user)


@router.patch("/users/{userId}", response_model=User, tags=["users"])
async def patch_user(userId: str, body: User, request: Request, caller: Caller = Depends(writer)):
    """A user's own settings; the rest of the User is read-only (the API token GET /me answers is ignored)."""
    sim = _sim(request)
    if userId != caller.user.id:
        raise ServiceError(401, "unauthenticated", "A user can only change its own settings.")
    user = caller.user
    values = settable(body.model_dump(exclude_none=True), views.user(sim, user), ("settings", "termsAccepted"), computed=("apiToken",))
    before = {"projectIDs": list(user.notify_project_ids), "termsAccepted": user.terms_accepted}
    notifications = (values.get("settings") or {}).get("sendNotifications")
    if notifications is not None:
        ids = notifications.get("projectIDs", [])
        for project_id in ids:
            sim.project(user, project_id)
        user.notify_project_ids = list(dict.fromkeys(ids))
    if "termsAccepted" in values:
        user.terms_accepted = values["termsAccepted"]
    after = {"projectIDs": list(user.notify_project_ids), "termsAccepted": user.terms_accepted}
    if after != before:
        sim.record(user, "USER_UPDATED", "User %s changed its settings." % user.username, changed=changed_fields(before, after))
    return views.user(sim, user)


@router.delete("/users/{userId}", status_code=204, tags=["users"])
async def delete_user(userId: str, request: Request, caller: Caller = Depends(admin)):
    sim = _sim(request)
    user = sim.account_user(caller.user, userId)
    if sim.accounts[user.account_id].owner_id == user.id:
        raise conflict("The account owner cannot be deleted.")
    user.status = "DELETED"
    for session_id in [sid for sid, s in sim.sessions.items() if s.user_id == user.id]:
        del sim.sessions[session_id]
    for project in sim.projects.values():
        if user.id in project.user_ids:
            project.user_ids.remove(user.id)
    sim.record(caller.user, "USER_DELETED", "User %s deleted." % user.username)
    return Response(status_code=204)


def _change_roles(request, body, caller, assign):
    sim = _sim(request)
    users = [(sim.account_user(caller.user, item.userId), item.roles) for item in body.items]
    for user, roles in users:
        if "ACCOUNT_OWNER" in roles:
            raise invalid("The ACCOUNT_OWNER role cannot be assigned or revoked.")
    for user, roles in users:
        before = list(user.roles)
        if assign:
            user.roles = list(dict.fromkeys(user.roles + list(roles)))
        else:
            user.roles = [role for role in user.roles if role not in roles]
        sim.record(caller.user, "USER_ROLES_ASSIGNED" if assign else "USER_ROLES_REVOKED", "Roles of %s changed." % user.username,
                   changed=changed_fields({"roles": before}, {"roles": user.roles}))
    return {"items": [views.user(sim, user) for user, unused_roles in users]}


@router.post("/users/assignRoles", response_model=Items[User], tags=["users"])
async def assign_roles(body: UserRolesRequest, request: Request, caller: Caller = Depends(admin)):
    return _change_roles(request, body, caller, assign=True)


@router.post("/users/revokeRoles", response_model=Items[User], tags=["users"])
async def revoke_roles(body: UserRolesRequest, request: Request, caller: Caller = Depends(admin)):
    return _change_roles(request, body, caller, assign=False)


def _check_new_password(password, old=None):
    if len(password) < MIN_PASSWORD:
        raise invalid("The new password must have at least %d characters." % MIN_PASSWORD)
    if old is not None and password == old:
        raise invalid("The new password must differ from the old one.")


@router.post("/changePassword", status_code=204, tags=["users"])
async def change_password(body: ChangePassword, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    if caller.user.password != body.oldPassword:
        raise ServiceError(401, "unauthenticated", "The old password is not right.")
    _check_new_password(body.newPassword, body.oldPassword)
    caller.user.password = body.newPassword
    sim.record(caller.user, "PASSWORD_CHANGED", "User %s changed its password." % caller.user.username)
    return Response(status_code=204)


@router.post("/setPassword", status_code=204, tags=["users"])
async def set_password(body: SetPassword, request: Request):
    sim = _sim(request)
    mail = next((m for m in sim.outbox if m["token"] == body.token and not m.get("used")), None)
    if mail is None:
        raise invalid("The token is not valid or was already used.")
    _check_new_password(body.newPassword)
    user = next(u for u in sim.users.values() if u.username == mail["to"] and u.status != "DELETED")
    mail["used"] = True
    user.password = body.newPassword
    user.status = "CONFIRMED"
    sim.record(user, "PASSWORD_SET", "User %s set its password." % user.username)
    return Response(status_code=204)


@router.post("/replaceApiToken", response_model=ApiToken, tags=["users"])
async def replace_api_token(request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    caller.user.api_token = sim.new_token()
    sim.record(caller.user, "API_TOKEN_REPLACED", "User %s replaced its API token." % caller.user.username)
    return {"apiToken": caller.user.api_token}


# -- the account --------------------------------------------------------------------------------


def _own_account(sim, caller, account_id):
    if account_id != caller.user.account_id:
        raise not_found("Account %s" % account_id)
    return sim.accounts[account_id]


@router.get("/accounts/{accountId}", response_model=Account, tags=["account"])
async def get_account(accountId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return views.account(sim, _own_account(sim, caller, accountId))


@router.get("/accounts/{accountId}/access", response_model=Message, tags=["account"])
async def account_access(accountId: str, request: Request, caller: Caller = Depends(authenticated)):
    """Sends the account owner a temporary access token by e-mail (for owners who sign in through SSO)."""
    sim = _sim(request)
    account = _own_account(sim, caller, accountId)
    if caller.user.id != account.owner_id:
        raise forbidden("Only the account owner can ask for a temporary access token.")
    sim.outbox.append({"to": caller.user.username, "kind": "access", "token": sim.new_token()})
    return {"message": "A temporary access token was sent to %s." % caller.user.username}


@router.get("/extendedAccountInfo", response_model=ExtendedAccountInfo, tags=["account"])
async def extended_account_info(request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    projects = sim.visible_projects(caller.user)
    generic = catalog.region("GENERIC", "Generic", caller.user.account_id)
    return {
        "account": views.account(sim, sim.accounts[caller.user.account_id]),
        "user": views.user(sim, caller.user),
        "projects": {"items": [views.project(sim, p) for p in projects]},
        "clouds": {"items": catalog.CLOUDS},
        "replicationConfigurations": {"items": [views.config(sim, c) for p in projects for c in p.configs.values()]},
        "genericRegion": sim.served_region(generic),
        "dateTime": {"dateTime": iso(sim.now())},
    }


@router.get("/clouds", response_model=Items[Cloud], tags=["account"])
async def list_clouds(page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    return page.of(catalog.CLOUDS)


@router.get("/licenses", response_model=Items[License], tags=["account"])
async def list_licenses(request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return page.of([views.license_(sim, lic) for lic in sim.account_licenses(caller.user.account_id)])


@router.get("/licenses/{licenseId}", response_model=License, tags=["account"])
async def get_license(licenseId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    lic = sim.licenses.get(licenseId)
    if lic is None or lic.account_id != caller.user.account_id:
        raise not_found("License %s" % licenseId)
    return views.license_(sim, lic)


# -- cloud credentials and regions ------------------------------------------------------------


def _decode_private_key(text):
    try:
        base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise invalid("privateKey must be base64 text.")
    return text


@router.get("/cloudCredentials", response_model=Items[CloudCredentials], tags=["cloud credentials"])
async def list_credentials(request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return page.of([views.credentials(sim, c) for c in sim.credentials.values() if c.account_id == caller.user.account_id])


@router.post("/cloudCredentials", response_model=CloudCredentials, status_code=201, tags=["cloud credentials"])
async def create_credentials(body: CloudCredentialsRequest, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    missing = [name for name in ("name", "cloudId", "publicKey", "privateKey") if getattr(body, name) is None]
    if missing:
        raise invalid("Missing members: %s." % ", ".join(missing), status=422)
    if body.cloudId not in catalog.CLOUD_NAMES:
        raise invalid("cloudId %s is not a cloud; see GET /clouds." % body.cloudId)
    creds = Credentials(
        id=sim.new_id(), account_id=caller.user.account_id, name=body.name, cloud_id=body.cloudId,
        public_key=body.publicKey, private_key=_decode_private_key(body.privateKey),
        account_identifier=body.accountIdentifier or catalog.account_identifier_for(catalog.CLOUD_NAMES[body.cloudId], body.publicKey),
    )
    sim.credentials[creds.id] = creds
    sim.record(caller.user, "CLOUD_CREDENTIALS_CREATED", "Cloud credentials %s created." % creds.name)
    return views.credentials(sim, creds)


@router.get("/cloudCredentials/{credentialsId}", response_model=CloudCredentials, tags=["cloud credentials"])
async def get_credentials(credentialsId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return views.credentials(sim, sim.account_credentials(caller.user, credentialsId))


@router.patch("/cloudCredentials/{credentialsId}", response_model=CloudCredentials, tags=["cloud credentials"])
async def patch_credentials(credentialsId: str, body: CloudCredentialsPatch, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    creds = sim.account_credentials(caller.user, credentialsId)
    body = CloudCredentialsRequest(**settable(body.model_dump(exclude_none=True), views.credentials(sim, creds),
                                              ("name", "cloudId", "publicKey", "privateKey", "accountIdentifier")))
    if body.cloudId is not None and body.cloudId != creds.cloud_id:
        raise invalid("The cloud of credentials cannot change; create new credentials instead.")
    before = {"name": creds.name, "publicKey": creds.public_key, "accountIdentifier": creds.account_identifier}
    if body.name is not None:
        creds.name = body.name
    if body.privateKey is not None:
        creds.private_key = _decode_private_key(body.privateKey)
    if body.publicKey is not None and body.publicKey != creds.public_key:
        creds.public_key = body.publicKey
        if body.accountIdentifier is None:
            creds.account_identifier = catalog.account_identifier_for(creds.cloud_name, creds.public_key)
    if body.accountIdentifier is not None:
        creds.account_identifier = body.accountIdentifier
    after = {"name": creds.name, "publicKey": creds.public_key, "accountIdentifier": creds.account_identifier}
    changes = changed_fields(before, after)
    if body.privateKey is not None:
        changes.append({"fieldName": "privateKey"})
    sim.record(caller.user, "CLOUD_CREDENTIALS_UPDATED", "Cloud credentials %s updated." % creds.name, changed=changes)
    return views.credentials(sim, creds)


@router.get("/cloudCredentials/{credentialsId}/regions", response_model=Items[Region], tags=["cloud credentials"])
async def list_regions(credentialsId: str, request: Request, page: Page = Depends(paging), caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return page.of([sim.served_region(view) for view in sim.regions_of(sim.account_credentials(caller.user, credentialsId))])


def _region(sim, caller, credentials_id, region_id):
    creds = sim.account_credentials(caller.user, credentials_id)
    view = sim.region_of(creds, region_id)
    if view is None:
        raise not_found("Region %s" % region_id)
    return creds, view


def _generic_only(creds):
    if creds.cloud_name not in ("GENERIC", "VCENTER"):
        raise invalid("Regions of %s are the cloud's own; only generic and vCenter regions can be renamed or removed." % creds.cloud_name)


@router.get("/cloudCredentials/{credentialsId}/regions/{regionId}", response_model=Region, tags=["cloud credentials"])
async def get_region(credentialsId: str, regionId: str, request: Request, caller: Caller = Depends(authenticated)):
    sim = _sim(request)
    return sim.served_region(_region(sim, caller, credentialsId, regionId)[1])


@router.patch("/cloudCredentials/{credentialsId}/regions/{regionId}", response_model=Region, tags=["cloud credentials"])
async def patch_region(credentialsId: str, regionId: str, body: Region, request: Request, caller: Caller = Depends(writer)):
    """A region's name; the rest of the Region is what the cloud offers, read-only."""
    sim = _sim(request)
    creds, view = _region(sim, caller, credentialsId, regionId)
    name = settable(body.model_dump(exclude_none=True), sim.served_region(view), ("name",)).get("name")
    if name is None or name == view["name"]:
        return sim.served_region(view)
    if not name.strip():
        raise invalid("name must not be empty.", status=422)
    _generic_only(creds)
    creds.region_names[regionId] = name
    sim.record(caller.user, "REGION_UPDATED", "Region %s renamed." % regionId, changed=changed_fields({"name": view["name"]}, {"name": name}))
    return sim.served_region(sim.region_of(creds, regionId))


@router.delete("/cloudCredentials/{credentialsId}/regions/{regionId}", status_code=204, tags=["cloud credentials"])
async def delete_region(credentialsId: str, regionId: str, request: Request, caller: Caller = Depends(writer)):
    sim = _sim(request)
    creds, view = _region(sim, caller, credentialsId, regionId)
    _generic_only(creds)
    creds.deleted_regions.append(regionId)
    sim.record(caller.user, "REGION_DELETED", "Region %s removed." % view["name"])
    return Response(status_code=204)
