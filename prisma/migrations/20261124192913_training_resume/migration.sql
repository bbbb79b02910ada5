-- AlterTable
ALTER TABLE "TrainingJob" ADD COLUMN     "resumeState" TEXT,
ADD COLUMN     "resumeStep" INTEGER,
ADD COLUMN     "runs" JSONB NOT NULL DEFAULT '[]';
