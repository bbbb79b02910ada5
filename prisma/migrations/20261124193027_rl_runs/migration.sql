-- CreateTable
CREATE TABLE "RlRun" (
    "id" UUID NOT NULL,
    "seq" SERIAL NOT NULL,
    "modelId" UUID NOT NULL,
    "createdById" UUID,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "prompts" TEXT NOT NULL,
    "promptSource" JSONB NOT NULL,
    "checker" JSONB NOT NULL,
    "groupSize" INTEGER NOT NULL,
    "iterations" INTEGER NOT NULL,
    "promptsPerIteration" INTEGER NOT NULL,
    "temperature" DOUBLE PRECISION NOT NULL,
    "maxTokens" INTEGER NOT NULL,
    "trainingConfig" JSONB NOT NULL DEFAULT '{}',
    "iteration" INTEGER NOT NULL DEFAULT 0,
    "currentJobId" UUID,
    "history" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "RlRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RlRun_status_seq_idx" ON "RlRun"("status", "seq");

-- CreateIndex
CREATE INDEX "RlRun_modelId_seq_idx" ON "RlRun"("modelId", "seq");

-- AddForeignKey
ALTER TABLE "RlRun" ADD CONSTRAINT "RlRun_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;
