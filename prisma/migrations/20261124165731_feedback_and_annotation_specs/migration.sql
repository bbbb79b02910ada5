-- CreateTable
CREATE TABLE "Feedback" (
    "id" UUID NOT NULL,
    "projectId" UUID NOT NULL,
    "feedbackType" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "svcRef" TEXT NOT NULL,
    "annotationRef" TEXT,
    "runnableRef" TEXT,
    "callRef" TEXT,
    "triggerRef" TEXT,
    "queueId" UUID,
    "wbUserId" UUID NOT NULL,
    "creator" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Feedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationSpec" (
    "id" UUID NOT NULL,
    "projectId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "type" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "createdById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AnnotationSpec_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Feedback_projectId_createdAt_idx" ON "Feedback"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "Feedback_projectId_feedbackType_createdAt_idx" ON "Feedback"("projectId", "feedbackType", "createdAt");

-- CreateIndex
CREATE INDEX "Feedback_projectId_triggerRef_createdAt_idx" ON "Feedback"("projectId", "triggerRef", "createdAt");

-- CreateIndex
CREATE INDEX "Feedback_projectId_svcRef_idx" ON "Feedback"("projectId", "svcRef");

-- CreateIndex
CREATE INDEX "AnnotationSpec_projectId_name_digest_idx" ON "AnnotationSpec"("projectId", "name", "digest");

-- CreateIndex
CREATE UNIQUE INDEX "AnnotationSpec_projectId_name_version_key" ON "AnnotationSpec"("projectId", "name", "version");

-- AddForeignKey
ALTER TABLE "Feedback" ADD CONSTRAINT "Feedback_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationSpec" ADD CONSTRAINT "AnnotationSpec_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
