-- AlterTable
ALTER TABLE "TrainingJob" ADD COLUMN     "resumeFormat" TEXT;

-- CreateTable
CREATE TABLE "WorkerKey" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "teamId" UUID,
    "createdById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WorkerKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemoteWorker" (
    "id" UUID NOT NULL,
    "keyId" UUID NOT NULL,
    "instance" TEXT NOT NULL,
    "capabilities" JSONB NOT NULL,
    "probes" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RemoteWorker_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkerKey_prefix_key" ON "WorkerKey"("prefix");

-- CreateIndex
CREATE INDEX "RemoteWorker_lastSeenAt_idx" ON "RemoteWorker"("lastSeenAt");

-- CreateIndex
CREATE UNIQUE INDEX "RemoteWorker_keyId_instance_key" ON "RemoteWorker"("keyId", "instance");

-- CreateIndex
CREATE INDEX "TrainingJob_leaseOwner_idx" ON "TrainingJob"("leaseOwner");

-- AddForeignKey
ALTER TABLE "WorkerKey" ADD CONSTRAINT "WorkerKey_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemoteWorker" ADD CONSTRAINT "RemoteWorker_keyId_fkey" FOREIGN KEY ("keyId") REFERENCES "WorkerKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
