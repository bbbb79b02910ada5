-- CreateTable
CREATE TABLE "ModelStepMetrics" (
    "modelId" UUID NOT NULL,
    "step" INTEGER NOT NULL,
    "metrics" JSONB NOT NULL DEFAULT '{}',
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ModelStepMetrics_pkey" PRIMARY KEY ("modelId","step")
);

-- CreateTable
CREATE TABLE "LoggedTrajectoryGroup" (
    "id" UUID NOT NULL,
    "modelId" UUID NOT NULL,
    "split" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "trajectories" JSONB NOT NULL,
    "rewardMean" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LoggedTrajectoryGroup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LoggedTrajectoryGroup_modelId_split_step_idx" ON "LoggedTrajectoryGroup"("modelId", "split", "step");

-- AddForeignKey
ALTER TABLE "ModelStepMetrics" ADD CONSTRAINT "ModelStepMetrics_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LoggedTrajectoryGroup" ADD CONSTRAINT "LoggedTrajectoryGroup_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;
