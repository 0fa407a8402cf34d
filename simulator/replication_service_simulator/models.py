"""Pydantic models of the wire shapes (docs/wire.md, "Models").

Response models have every member optional: the routes serialise them with
``exclude_none``, so a member with no value is left out and never sent as ``null``.
Request models forbid unknown members, so a body that does not fit answers 422.
"""

from typing import Dict, Generic, List, Literal, Optional, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

T = TypeVar("T")

Role = Literal["USER", "ACCOUNT_ADMIN", "ACCOUNT_OWNER", "GLOBAL_READONLY"]
ProjectType = Literal["MIGRATION", "DR", "BACKUP"]
ReplicationStatus = Literal["STARTED", "PAUSED", "STOPPED"]


class Wire(BaseModel):
    """A response shape; members the simulator does not set are left out of the JSON."""

    model_config = ConfigDict(extra="forbid")


class Request(BaseModel):
    """A request body; anything the model does not name answers 422."""

    model_config = ConfigDict(extra="forbid")


class Items(Wire, Generic[T]):
    items: List[T]


# -- users, accounts, clouds, licences ------------------------------------------------------


class NotificationProjects(Wire):
    projectIDs: List[str] = []


class UserSettings(Wire):
    sendNotifications: Optional[NotificationProjects] = None


class User(Wire):
    id: Optional[str] = None
    username: Optional[str] = None
    account: Optional[str] = None
    roles: Optional[List[Role]] = None
    status: Optional[Literal["PENDING", "CONFIRMED", "DELETED"]] = None
    apiToken: Optional[str] = None
    hasPassword: Optional[bool] = None
    termsAccepted: Optional[bool] = None
    selfLink: Optional[str] = None
    settings: Optional[UserSettings] = None


class Account(Wire):
    id: Optional[str] = None
    ownerId: Optional[str] = None
    defaultLicenseType: Optional[str] = None
    maxProjectsAllowed: Optional[int] = None


class Message(Wire):
    message: str


class Cloud(Wire):
    id: str
    name: Literal["AWS", "GCP", "AZURE", "AZURE_ARM", "VCENTER", "GENERIC"]
    roles: List[Literal["SOURCE", "TARGET"]]


class CloudCredentials(Wire):
    id: Optional[str] = None
    name: Optional[str] = None
    cloud: Optional[str] = None
    publicKey: Optional[str] = None
    accountIdentifier: Optional[str] = None


class Subnet(Wire):
    subnetId: str
    networkId: Optional[str] = None
    name: Optional[str] = None
    outpostArn: Optional[str] = None
    # Not in the published interface: served only under the setting unpublishedMembers (catalog.published).
    cidrBlock: Optional[str] = None


class SecurityGroup(Wire):
    securityGroupId: str
    networkId: Optional[str] = None
    name: Optional[str] = None


class Region(Wire):
    id: Optional[str] = None
    name: Optional[str] = None
    cloud: Optional[str] = None
    subnets: Optional[List[Subnet]] = None
    securityGroups: Optional[List[SecurityGroup]] = None
    instanceTypes: Optional[List[str]] = None
    zones: Optional[List[str]] = None
    volumeEncryptionKeys: Optional[List[str]] = None
    iamRoles: Optional[List[str]] = None
    staticIps: Optional[List[str]] = None
    # Not in the published interface: served only under the setting unpublishedMembers (catalog.published).
    diskTypes: Optional[List[str]] = None


class License(Wire):
    id: Optional[str] = None
    type: Optional[Literal["MIGRATION", "DR", "BACKUP", "DR_TRIAL"]] = None
    count: Optional[int] = None
    used: Optional[int] = None
    expirationDateTime: Optional[str] = None
    durationFromStartOfUse: Optional[str] = None
    features: Optional[Dict[str, bool]] = None


# -- projects and replication configurations --------------------------------------------------


class ReplicationTag(Request):
    key: StrictStr
    value: StrictStr


class ProjectPatch(Request):
    name: Optional[StrictStr] = Field(default=None, min_length=1, max_length=256)
    sourceCloudId: Optional[StrictStr] = None
    sourceRegion: Optional[StrictStr] = None
    replicationConfiguration: Optional[StrictStr] = None
    cloudCredentialsIDs: Optional[List[StrictStr]] = None
    sourceCloudCredentialsId: Optional[StrictStr] = None
    licensesIDs: Optional[List[StrictStr]] = None
    features: Optional[Dict[str, StrictBool]] = None


class ProjectCreate(ProjectPatch):
    name: StrictStr = Field(min_length=1, max_length=256)
    type: ProjectType = "DR"
    targetCloudId: Optional[StrictStr] = None


class Project(ProjectPatch):
    """As the service answers it: the settable members and those the service keeps."""

    id: Optional[str] = None
    type: Optional[ProjectType] = None
    targetCloudId: Optional[str] = None
    usersIDs: Optional[List[str]] = None
    agentInstallationToken: Optional[str] = None
    replicationReversed: Optional[bool] = None


class ReplicationConfigurationPatch(Request):
    region: Optional[StrictStr] = None
    cloudCredentials: Optional[StrictStr] = None
    subnetId: Optional[StrictStr] = None
    replicatorSecurityGroupIDs: Optional[List[StrictStr]] = None
    replicationServerType: Optional[StrictStr] = None
    useDedicatedServer: Optional[StrictBool] = None
    usePrivateIp: Optional[StrictBool] = None
    volumeEncryptionAllowed: Optional[StrictBool] = None
    volumeEncryptionKey: Optional[StrictStr] = None
    replicationTags: Optional[List[ReplicationTag]] = None
    bandwidthThrottling: Optional[StrictInt] = Field(default=None, ge=0)
    proxyUrl: Optional[StrictStr] = None
    zone: Optional[StrictStr] = None
    storageLocationId: Optional[StrictStr] = None
    computeLocationId: Optional[StrictStr] = None
    logicalLocationId: Optional[StrictStr] = None
    subnetHostProject: Optional[StrictStr] = None
    archivingEnabled: Optional[StrictBool] = None
    objectStorageLocation: Optional[StrictStr] = None


class ReplicationConfiguration(ReplicationConfigurationPatch):
    """As the service answers it: the settable members and the ID."""

    id: Optional[str] = None


class ReplicationConfigurationCreate(ReplicationConfigurationPatch):
    region: StrictStr
    cloudCredentials: StrictStr


class ProjectStorageWorking(Wire):
    disksTotalBytes: int
    snapshotsTotalBytes: int


class ProjectStorage(Wire):
    projectId: str
    pointsInTimeTotalBytes: int
    runningMachinesTotalBytes: int
    calculationDateTime: str
    workingStorage: ProjectStorageWorking


# -- machines ---------------------------------------------------------------------------------


class Cpu(Wire):
    cores: Optional[int] = None
    modelName: Optional[str] = None


class Disk(Wire):
    name: Optional[str] = None
    isProtected: Optional[bool] = None
    size: Optional[int] = None


class ApplicationItem(Wire):
    applicationName: str


class ServiceItem(Wire):
    serviceName: str


class SourceProperties(Wire):
    name: Optional[str] = None
    machineCloudId: Optional[str] = None
    machineCloudState: Optional[str] = None
    os: Optional[str] = None
    memory: Optional[int] = None
    publicIps: Optional[List[str]] = None
    cpu: Optional[List[Cpu]] = None
    disks: Optional[List[Disk]] = None
    installedApplications: Optional[Items[ApplicationItem]] = None
    runningServices: Optional[Items[ServiceItem]] = None


class InitiationStep(Wire):
    name: str
    status: Literal["NOT_STARTED", "STARTED", "SUCCEEDED", "FAILED", "SKIPPED"]
    message: Optional[str] = None


class InitiationState(Wire):
    startDateTime: str
    steps: List[InitiationStep]


class ReplicationInfo(Wire):
    lastConsistencyDateTime: Optional[str] = None
    nextConsistencyEstimatedDateTime: Optional[str] = None
    lastSeenDateTime: Optional[str] = None
    lastScanStartDateTime: Optional[str] = None
    totalStorageBytes: Optional[int] = None
    replicatedStorageBytes: Optional[int] = None
    backloggedStorageBytes: Optional[int] = None
    rescannedStorageBytes: Optional[int] = None
    initiationStates: Optional[Items[InitiationState]] = None


class LifeCycle(Wire):
    agentInstallationDateTime: Optional[str] = None
    connectionEstablishedDateTime: Optional[str] = None
    lastTestLaunchDateTime: Optional[str] = None
    lastRecoveryLaunchDateTime: Optional[str] = None
    lastCutoverDateTime: Optional[str] = None


class MachineReplicationConfiguration(Wire):
    """The replication settings a machine replicates with (those of the project's default configuration)."""

    subnetId: Optional[str] = None
    replicatorSecurityGroupIDs: Optional[List[str]] = None
    replicationServerType: Optional[str] = None
    useDedicatedServer: Optional[bool] = None
    usePrivateIp: Optional[bool] = None
    volumeEncryptionAllowed: Optional[bool] = None
    volumeEncryptionKey: Optional[str] = None
    replicationTags: Optional[List[Dict[str, str]]] = None
    bandwidthThrottling: Optional[int] = None
    proxyUrl: Optional[str] = None
    zone: Optional[str] = None
    storageLocationId: Optional[str] = None
    computeLocationId: Optional[str] = None
    logicalLocationId: Optional[str] = None
    subnetHostProject: Optional[str] = None
    archivingEnabled: Optional[bool] = None
    objectStorageLocation: Optional[str] = None


class PointInTime(Wire):
    id: str
    dateTime: str


class MachineLicense(Wire):
    licenseId: Optional[str] = None
    startOfUseDateTime: Optional[str] = None


class Machine(Wire):
    id: Optional[str] = None
    sourceProperties: Optional[SourceProperties] = None
    replicationInfo: Optional[ReplicationInfo] = None
    lifeCycle: Optional[LifeCycle] = None
    replicationStatus: Optional[ReplicationStatus] = None
    replica: Optional[str] = None
    isAgentInstalled: Optional[bool] = None
    tags: Optional[List[str]] = None
    restoreServers: Optional[List[str]] = None
    license: Optional[MachineLicense] = None
    replicationConfiguration: Optional[MachineReplicationConfiguration] = None
    fromPointInTime: Optional[PointInTime] = None


class Replica(Wire):
    id: Optional[str] = None
    machine: Optional[str] = None
    name: Optional[str] = None
    machineCloudId: Optional[str] = None
    machineCloudState: Optional[str] = None
    publicIps: Optional[List[str]] = None
    regionId: Optional[str] = None
    pointInTime: Optional[str] = None
    cloudEndureCreationDateTime: Optional[str] = None


class BandwidthThrottling(Wire):
    bandwidthThrottling: int


class JobLogEntry(Wire):
    message: str
    logDateTime: str


class Job(Wire):
    id: Optional[str] = None
    type: Optional[str] = None
    status: Optional[Literal["PENDING", "STARTED", "COMPLETED", "FAILED"]] = None
    creationDateTime: Optional[str] = None
    endDateTime: Optional[str] = None
    initiatedBy: Optional[str] = None
    participatingMachines: Optional[List[str]] = None
    log: Optional[List[JobLogEntry]] = None


class MachinesListInvalidIDsAndJob(Wire):
    items: List[Machine]
    invalidMachineIDs: List[str]
    job: Optional[Job] = None


# -- audit log and account info ---------------------------------------------------------------


class ChangedField(Wire):
    fieldName: str
    oldValue: Optional[str] = None
    newValue: Optional[str] = None


class ParticipatingMachine(Wire):
    machineCloudEndureId: Optional[str] = None
    machineCloudId: Optional[str] = None
    machineCloudName: Optional[str] = None


class AuditLogEntry(Wire):
    username: Optional[str] = None
    eventName: str
    description: Optional[str] = None
    timestamp: str
    jobId: Optional[str] = None
    changedFields: Optional[List[ChangedField]] = None
    participatingMachines: Optional[List[ParticipatingMachine]] = None


class AuditLog(Wire):
    items: List[AuditLogEntry]
    hasMoreResults: bool


class DateTimeWrapper(Wire):
    dateTime: str


class ExtendedAccountInfo(Wire):
    account: Account
    user: User
    projects: Items[Project]
    clouds: Items[Cloud]
    replicationConfigurations: Items[ReplicationConfiguration]
    genericRegion: Optional[Region] = None
    dateTime: DateTimeWrapper


class ApiToken(Wire):
    apiToken: str


# -- request bodies ---------------------------------------------------------------------------


class PasswordLogin(Request):
    username: StrictStr
    password: StrictStr


class TokenLogin(Request):
    userApiToken: StrictStr


class MachinesPatch(Request):
    """Machines as GET answers them (each with its ID); only their launch-time settings (tags) are set."""

    items: List[Machine]


class MachineIDs(Request):
    machineIDs: List[StrictStr]


class BandwidthThrottlingRequest(Request):
    bandwidthThrottling: StrictInt = Field(ge=0)


class CloudCredentialsRequest(Request):
    name: Optional[StrictStr] = None
    cloudId: Optional[StrictStr] = None
    publicKey: Optional[StrictStr] = None
    privateKey: Optional[StrictStr] = None
    accountIdentifier: Optional[StrictStr] = None


class CloudCredentialsPatch(CloudCredentialsRequest):
    """The request's members, and the read-only ones GET answers (sent back unchanged, they are ignored)."""

    id: Optional[StrictStr] = None
    cloud: Optional[StrictStr] = None


class UserCreate(Request):
    username: StrictStr = Field(min_length=3)


class UserRoles(Request):
    userId: StrictStr
    roles: List[Role]


class UserRolesRequest(Request):
    items: List[UserRoles]


class ChangePassword(Request):
    oldPassword: StrictStr
    newPassword: StrictStr


class SetPassword(Request):
    token: StrictStr
    newPassword: StrictStr


class ProjectUsers(Request):
    projectId: StrictStr
    userIDs: List[StrictStr]


class ProjectUsersRequest(Request):
    items: List[ProjectUsers]


# -- jobs, launches, recovery plans, files, blueprints (part 2) ----------------------------------


class LaunchItem(Request):
    machineId: StrictStr
    pointInTimeId: Optional[StrictStr] = None


class DebugScripts(Request):
    preboot: List[StrictStr] = []
    postboot: List[StrictStr] = []


class LaunchMachinesParameters(Request):
    launchType: Literal["TEST", "RECOVERY", "CUTOVER", "DEBUG"]
    items: List[LaunchItem] = Field(min_length=1)
    debugScripts: Optional[DebugScripts] = None


class ReplicaIDs(Request):
    replicaIDs: List[StrictStr] = Field(min_length=1)


class RecoveryPlanStep(Request):
    name: StrictStr = Field(min_length=1)
    machineIDs: List[StrictStr]
    waitBefore: Optional[StrictStr] = None


class RecoveryPlanSteps(Request):
    items: List[RecoveryPlanStep]


class RecoveryPlanPatch(Request):
    name: Optional[StrictStr] = Field(default=None, min_length=1)
    steps: Optional[RecoveryPlanSteps] = None


class RecoveryPlanCreate(RecoveryPlanPatch):
    name: StrictStr = Field(min_length=1)
    steps: RecoveryPlanSteps


class RecoveryPlan(RecoveryPlanPatch):
    id: Optional[str] = None


class RunRecoveryPlan(Request):
    recoveryPlanID: StrictStr
    executionMode: Literal["TEST", "RECOVERY", "CUTOVER", "CLEANUP"]
    pointInTimeID: Optional[StrictStr] = None


class FindFilesParameters(Request):
    query: StrictStr = Field(min_length=1)
    machineIDs: List[StrictStr] = Field(min_length=1)


class FoundFile(Wire):
    machineId: str
    filePath: str
    pointsInTime: List[PointInTime]


class FindFilesResults(Wire):
    count: int
    query: str
    items: List[FoundFile]
    invalidMachineIDs: List[str]


class RestoreFileItem(Request):
    machineId: StrictStr
    filePath: StrictStr
    pointInTimeId: StrictStr


class RestoreFilesParameters(Request):
    items: List[RestoreFileItem] = Field(min_length=1)


class MoveMachines(Request):
    machineIDs: List[StrictStr] = Field(min_length=1)
    destinationProjectId: StrictStr


class BlueprintTag(Request):
    key: StrictStr
    value: StrictStr


class BlueprintDisk(Request):
    name: StrictStr
    type: Optional[StrictStr] = None
    iops: Optional[StrictInt] = Field(default=None, ge=0)


class BlueprintPatch(Request):
    """Every member; read-only ones are accepted when equal to the stored values."""

    id: Optional[StrictStr] = None
    machineId: Optional[StrictStr] = None
    region: Optional[StrictStr] = None
    machineName: Optional[StrictStr] = None
    instanceType: Optional[StrictStr] = None
    subnetIDs: Optional[List[StrictStr]] = None
    securityGroupIDs: Optional[List[StrictStr]] = None
    privateIPs: Optional[List[StrictStr]] = None
    privateIPAction: Optional[Literal["CREATE_NEW", "COPY_ORIGIN", "CUSTOM_IP", "USE_NETWORK_INTERFACE"]] = None
    publicIPAction: Optional[Literal["ALLOCATE", "DONT_ALLOCATE", "AS_SUBNET"]] = None
    staticIp: Optional[StrictStr] = None
    staticIpAction: Optional[StrictStr] = None
    iamRole: Optional[StrictStr] = None
    tenancy: Optional[Literal["SHARED", "DEDICATED", "HOST"]] = None
    placementGroup: Optional[StrictStr] = None
    runAfterLaunch: Optional[StrictBool] = None
    tags: Optional[List[BlueprintTag]] = None
    disks: Optional[List[BlueprintDisk]] = None
    recommendedInstanceType: Optional[StrictStr] = None
    recommendedPrivateIP: Optional[StrictStr] = None


class BlueprintCreate(BlueprintPatch):
    machineId: StrictStr
    region: StrictStr


class Blueprint(BlueprintPatch):
    pass
